import type {
  AuthOutcome,
  AuthRejection,
  HttpReply,
  HttpRequestView,
  MemberAccess,
} from '@mcp-fw/core/http';
import {
  InvalidTokenError,
  VerifierUnavailableError,
  type AuthInfo,
  type TokenVerifier,
} from './auth-info.js';

/** The options of {@link oauthResource}: this resource, who issues its tokens and how they are checked. */
export interface OAuthResourceOptions {
  /** This server's canonical URL, as clients name it: the MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  readonly resource: string;
  /** Issuer URLs of the authorization servers whose tokens are accepted. */
  readonly authorizationServers: readonly string[];
  /** Checks each bearer token: {@link jwtVerifier}, {@link introspectionVerifier} or your own. */
  readonly verifier: TokenVerifier;
  /** Scopes advertised as `scopes_supported` (default: none listed). */
  readonly scopesSupported?: readonly string[];
  /**
   * Scopes named in the 401 challenge (`scope="…"`): what a client asks for at first. MCP
   * clients prefer it to `scopes_supported`, so listing only the basic scopes here keeps first
   * tokens least-privileged; wider ones are asked for when a 403 names them (step-up).
   */
  readonly challengeScopes?: readonly string[];
  /** Human-readable name (`resource_name`). */
  readonly resourceName?: string;
  /** A page documenting the server (`resource_documentation`). */
  readonly resourceDocumentation?: string;
}

/** The options {@link oauthResource} adds to `serveHttp` / `createHttpHandler`. */
export interface OAuthResourceHttpOptions {
  /** Serves the protected resource metadata (RFC 9728) at its well-known URLs. */
  readonly routes: (req: HttpRequestView) => HttpReply | undefined | Promise<HttpReply | undefined>;
  /** Verifies the bearer token and attaches the caller, or answers 401 / 503. */
  readonly authenticate: (req: HttpRequestView) => Promise<AuthOutcome>;
  /** Refuses a member whose scopes the token lacks with 403 `insufficient_scope`. */
  readonly authorize: (auth: unknown, access: MemberAccess) => AuthRejection | undefined;
  /** The metadata document's URL (what the challenges point to). */
  readonly metadataUrl: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Makes an HTTP MCP server an OAuth 2.1 protected resource: serves its RFC 9728 metadata at the
 * path-aware and the root well-known URLs (readable from any browser origin), and refuses
 * requests without a valid bearer token with a `WWW-Authenticate` challenge pointing there
 * (401; 503 when the token cannot be checked now). Tokens are read from the `Authorization`
 * header only. Handlers see the token's {@link AuthInfo} as `ctx.auth`.
 *
 * @example
 * ```ts
 * import { serveHttp } from '@mcp-fw/core/node';
 * import { jwtVerifier, oauthResource } from '@mcp-fw/auth';
 * import type { McpFwServer } from '@mcp-fw/core';
 * declare const server: McpFwServer;
 * const resource = 'https://mcp.example.com/mcp';
 * await serveHttp(server, {
 *   port: 3000,
 *   allowedHosts: ['mcp.example.com'],
 *   ...oauthResource({
 *     resource,
 *     authorizationServers: ['https://auth.example.com'],
 *     verifier: jwtVerifier({ issuer: 'https://auth.example.com', jwksUri: 'https://auth.example.com/jwks', audience: resource }),
 *   }),
 * });
 * ```
 */
export function oauthResource(options: OAuthResourceOptions): OAuthResourceHttpOptions {
  const resource = new URL(options.resource);
  if (resource.hash || resource.search)
    throw new TypeError(
      `oauthResource: resource ${options.resource} must not carry a query or fragment (RFC 8707 §2)`,
    );
  if (options.authorizationServers.length === 0)
    throw new TypeError('oauthResource: name at least one authorization server');
  const suffix = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const pathAware = `${WELL_KNOWN}${suffix}`;
  const metadataUrl = `${resource.origin}${pathAware}`;
  const document = JSON.stringify({
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation
      ? { resource_documentation: options.resourceDocumentation }
      : {}),
  });
  const initial = options.challengeScopes?.length
    ? { scope: options.challengeScopes.join(' ') }
    : {};
  const challenge = (fields: Record<string, string> = {}) =>
    `Bearer ${Object.entries({
      ...fields,
      ...(fields.error === 'insufficient_scope' ? {} : initial),
      resource_metadata: metadataUrl,
    })
      .map(([k, v]) => `${k}="${quotable(v)}"`)
      .join(', ')}`;

  return {
    metadataUrl,
    routes(req) {
      const path = req.path;
      if (path !== pathAware && path !== WELL_KNOWN) return undefined;
      // Public metadata: any page may read it (RFC 9728 §3 asks for nothing secret here).
      const cors = { 'access-control-allow-origin': '*' };
      if (req.method === 'OPTIONS') {
        return {
          status: 204,
          headers: {
            ...cors,
            'access-control-allow-methods': 'GET, OPTIONS',
            'access-control-allow-headers': 'mcp-protocol-version',
            'access-control-max-age': '600',
          },
        };
      }
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return { status: 405, headers: { ...cors, allow: 'GET, OPTIONS' } };
      return {
        status: 200,
        headers: { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' },
        body: document,
      };
    },
    async authenticate(req) {
      const header = req.header('authorization');
      if (header === undefined) {
        // RFC 6750 §3.1: a request without credentials gets the bare challenge, no error code. A
        // token in the query string is not a credential here (MCP: header only).
        const message = req.url.searchParams.has('access_token')
          ? 'Unauthorized: access tokens are accepted only in the Authorization header (Authorization: Bearer <token>), never in the query string'
          : `Unauthorized: send an access token (Authorization: Bearer <token>); see ${metadataUrl} for how to get one`;
        return { reject: { status: 401, wwwAuthenticate: challenge(), message } };
      }
      const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
      if (!match) {
        const description = 'the Authorization header must be "Bearer <token>"';
        return {
          reject: {
            status: 401,
            wwwAuthenticate: challenge({ error: 'invalid_token', error_description: description }),
            message: `Unauthorized: ${description}`,
          },
        };
      }
      let info: AuthInfo;
      try {
        info = await options.verifier(match[1]);
      } catch (error) {
        if (error instanceof VerifierUnavailableError) {
          return {
            reject: {
              status: 503,
              message: `Service Unavailable: ${error.message}; try again later`,
              headers: { 'retry-after': '5' },
              // The client can only retry; the operator can fix it, so the log says how.
              log:
                `answered 503: a bearer token could not be checked, because ${error.message}. ` +
                "Every authenticated request fails until it can: check the verifier's URL (jwtVerifier's jwksUri, introspectionVerifier's endpoint) " +
                `against the issuer's metadata, and that this server can reach it (mcp-fw auth doctor ${options.resource} tests it).`,
            },
          };
        }
        const description =
          error instanceof InvalidTokenError
            ? error.message
            : 'the access token could not be verified';
        return {
          reject: {
            status: 401,
            wwwAuthenticate: challenge({ error: 'invalid_token', error_description: description }),
            message: `Unauthorized: ${description}`,
          },
        };
      }
      // The token rides along for token exchange only, hidden from JSON and logs.
      // The upstream access (own authorization server) rides along the same way.
      const auth = Object.defineProperty({ ...info }, 'token', {
        value: match[1],
        enumerable: false,
      });
      if (info.upstream)
        Object.defineProperty(auth, 'upstream', { value: info.upstream, enumerable: false });
      return { auth };
    },
    authorize(auth, access) {
      const granted = (auth as AuthInfo | undefined)?.scopes;
      if (!granted)
        return {
          status: 401,
          wwwAuthenticate: challenge(),
          message: 'Unauthorized: send an access token (Authorization: Bearer <token>)',
        };
      const missing = access.scopes.filter((s) => !granted.includes(s));
      if (missing.length === 0) return undefined;
      const what = `${access.kind} ${access.name}`;
      const description = `the ${what} needs scope ${missing.join(' ')}; authorize again with it`;
      // RFC 6750 §3.1: `scope` lists what the request needs. The scopes already granted are kept
      // in it, so a client that re-authorises with exactly this list loses nothing it had.
      const scope = [...new Set([...access.scopes, ...granted])].join(' ');
      return {
        status: 403,
        wwwAuthenticate: challenge({
          error: 'insufficient_scope',
          scope,
          error_description: description,
        }),
        message: `Forbidden: ${description}`,
      };
    },
  };
}

/**
 * `value` as RFC 6750 §3 allows inside a quoted challenge parameter (`%x20-21 / %x23-5B /
 * %x5D-7E`): a member name or URI is the client's text, and one with CR/LF or a non-ASCII
 * character cannot go into a header at all (writing it throws). Quotes and backslashes are
 * dropped; other characters are percent-encoded as UTF-8, so the challenge still names them.
 */
function quotable(value: string): string {
  return value
    .replace(/["\\]/g, '')
    .replace(/[^\x20-\x7e]/gu, (c) =>
      Array.from(UTF8.encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
        '',
      ),
    );
}

const UTF8 = new TextEncoder();
