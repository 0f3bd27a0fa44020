/**
 * What went wrong while authorizing, one name per cause: a refused server, authorization server
 * or redirect, a failed step of the flow, or a limit reached.
 */
export type AuthorizationFailure =
  /** The `WWW-Authenticate` challenge is malformed or carries duplicate or injected parameters. */
  | 'bad-challenge'
  /** The protected resource metadata could not be found or is not valid JSON metadata. */
  | 'resource-metadata'
  /** The protected resource metadata names a `resource` other than the server being called. */
  | 'resource-mismatch'
  /** The authorization server metadata could not be found or lacks a required endpoint. */
  | 'authorization-server-metadata'
  /** The authorization server metadata's `issuer` is not the URL it was fetched for (RFC 8414 §3.3). */
  | 'issuer-mismatch'
  /** An authorization server (or one of its endpoints) is on a private or loopback address. */
  | 'private-address'
  /** An authorization server endpoint is plain `http` on a non-loopback host. */
  | 'insecure-endpoint'
  /** The authorization server does not offer PKCE with S256. */
  | 'pkce-unsupported'
  /** No way to identify the client: not pre-registered, no CIMD URL accepted, no registration endpoint. */
  | 'no-client'
  /** Dynamic client registration was refused. */
  | 'registration'
  /** The redirect carried a `state` other than the one sent. */
  | 'state-mismatch'
  /** The redirect's `iss` is not the authorization server's issuer, or is missing where required (RFC 9207). */
  | 'iss-mismatch'
  /** The authorization server redirected back with an error (the user declined, an invalid scope…). */
  | 'authorization-denied'
  /** The token endpoint refused the request or answered something that is not a token. */
  | 'token-request'
  /** The server kept refusing the token after the allowed number of authorizations. */
  | 'retry-limit'
  /** Interactive sign-in is needed but no `onAuthorizationUrl` handler was given. */
  | 'interaction-required';

/**
 * Authorization for an MCP server failed. `reason` names the cause; the message says what was
 * seen and how to fix it. No token was sent anywhere the failure concerns.
 *
 * @example
 * ```ts
 * import { AuthorizationError, connect, oauth } from '@mcp-fw/client';
 *
 * try {
 *   await connect('https://example.com/mcp', { auth: oauth({ onAuthorizationUrl }) });
 * } catch (error) {
 *   if (error instanceof AuthorizationError && error.reason === 'issuer-mismatch') console.error(error.message);
 * }
 * ```
 */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  /** What went wrong. */
  readonly reason: AuthorizationFailure;
  /** The HTTP status of the response that failed, when there was one. */
  readonly status?: number;

  constructor(
    reason: AuthorizationFailure,
    message: string,
    details: { status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.status = details.status;
  }
}
