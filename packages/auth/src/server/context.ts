import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import type { JWK } from 'jose';
import type { ClientMetadataDocumentOptions, KnownClient, PreRegisteredClient } from './clients.js';
import type { Sealer } from './crypto.js';
import type { AuthorizationStore } from './store.js';
import type { UpstreamClient, UpstreamProvider } from './upstream.js';

/** The options of {@link authorizationServer}. */
export interface AuthorizationServerOptions {
  /** The MCP endpoint's canonical URL (e.g. `https://mcp.example.com/mcp`): the one resource tokens are issued for. */
  readonly resource: string;
  /** The issuer identifier (default: the resource's origin, where the endpoints are mounted). */
  readonly issuer?: string;
  /** Where people sign in: {@link oidcUpstream} or a preset of {@link upstreams}. */
  readonly upstream: UpstreamProvider;
  /** The scopes this server grants for the resource (a request for another is `invalid_scope`). */
  readonly scopes: readonly string[];
  /** Clients known in advance (public with PKCE, or confidential with a secret). */
  readonly clients?: readonly PreRegisteredClient[];
  /** Dynamic client registration (RFC 7591) for clients without a metadata document (default true). */
  readonly registration?: boolean;
  /** Client ID Metadata Documents (on by default): how they are fetched; false turns them off. */
  readonly clientMetadataDocuments?: ClientMetadataDocumentOptions | false;
  /** Where codes, clients, consents and token families live (default: this process's memory). */
  readonly store?: AuthorizationStore;
  /**
   * Seals the upstream tokens in the store (AES-GCM). Default: random per process; a shared
   * store needs the same secret on every instance (startup fails without it).
   */
  readonly secret?: string;
  /**
   * The private key access tokens are signed with (an ES256 JWK with `d`). Default: a new key
   * per process, so tokens do not survive a restart; a shared store needs one (startup fails
   * without it).
   */
  readonly signingKey?: JWK;
  /** Access token lifetime in seconds (default 3600). */
  readonly accessTokenTtl?: number;
  /** Refresh token family lifetime in seconds (default 30 days). */
  readonly refreshTokenTtl?: number;
  /**
   * Refuse sign-in when the upstream names an email it has not verified (default false: such an
   * email is dropped from the claims, never passed on as the person's).
   */
  readonly requireVerifiedEmail?: boolean;
}

/** What each endpoint module needs of the server. */
export interface ServerContext {
  readonly issuer: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly store: AuthorizationStore;
  readonly sealer: Sealer;
  readonly upstream: UpstreamClient;
  readonly options: AuthorizationServerOptions;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtlMs: number;
  /** Finds the client of a request, or throws `ClientError`. */
  client(clientId: string): Promise<KnownClient>;
  /** Signs an access token for a token family. */
  sign(family: TokenFamily, familyId: string, scopes: readonly string[]): Promise<string>;
  /** The endpoint URLs. */
  readonly urls: Readonly<
    Record<'authorize' | 'token' | 'register' | 'revoke' | 'jwks' | 'consent' | 'callback', string>
  >;
}

/** What one grant (a sign-in of one person for one client) holds, from its code to its last refresh. */
export interface TokenFamily {
  readonly clientId: string;
  readonly subject: string;
  readonly claims: Record<string, unknown>;
  readonly scopes: readonly string[];
  readonly resource: string;
  /** The upstream tokens, sealed. */
  readonly upstream: string;
  /** Hash of the refresh token currently valid. */
  readonly refresh?: string;
  /** When the family ends, ms since the epoch. */
  readonly expiresAt: number;
}

/** A route handler: the request, and the path relative to the server's mount. */
export type Route = (req: HttpRequestView) => Promise<HttpReply>;

/** The cookie `name` of a request. */
export function cookieOf(req: HttpRequestView, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A JSON answer for the token, registration and revocation endpoints (never cached). */
export function json(status: number, body: unknown, extra: Record<string, string> = {}): HttpReply {
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'access-control-allow-origin': '*',
      ...extra,
    },
    body: JSON.stringify(body),
  };
}

/** An OAuth error answer (RFC 6749 §5.2). */
export function oauthError(status: number, error: string, description: string): HttpReply {
  return json(status, { error, error_description: description });
}
