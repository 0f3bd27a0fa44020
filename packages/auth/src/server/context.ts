import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import type { JWK } from 'jose';
import type { ClientMetadataDocumentOptions, KnownClient, PreRegisteredClient } from './clients.js';
import type { Sealer } from './crypto.js';
import type { remoteKeySet } from '../remote-keys.js';
import type { AuthorizationRateLimits } from './rate-limits.js';
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
  /**
   * Clients known in advance: public with PKCE, confidential with a secret, and machine clients
   * (client credentials, ID-JAG) with a secret or keys (`private_key_jwt`).
   */
  readonly clients?: readonly PreRegisteredClient[];
  /**
   * Identity providers whose ID-JAGs (enterprise-managed authorization) are exchanged here for
   * access tokens, with the jwt-bearer grant, by pre-registered clients that list it.
   */
  readonly trustedIdentityProviders?: readonly TrustedIdentityProvider[];
  /**
   * Rate limits of the endpoints, per client address and per client_id (on by default; see
   * {@link AuthorizationRateLimits}); false turns them off.
   */
  readonly rateLimits?: AuthorizationRateLimits | false;
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

/**
 * An identity provider whose Identity Assertion JWT Authorization Grants (ID-JAG, the
 * enterprise-managed authorization extension) this server accepts: the `trustedIdentityProviders`
 * option of `authorizationServer`.
 *
 * @example
 * ```ts
 * import type { TrustedIdentityProvider } from '@mcp-fw/auth/server';
 * const okta: TrustedIdentityProvider = {
 *   issuer: 'https://acme.okta.com',
 *   jwksUri: 'https://acme.okta.com/oauth2/v1/keys',
 * };
 * ```
 */
export interface TrustedIdentityProvider {
  /** Its issuer identifier: the `iss` of its ID-JAGs, exactly. */
  readonly issuer: string;
  /** Where its signing keys are published (fetched, cached, refetched for an unknown `kid`). */
  readonly jwksUri: string;
}

/** The signing-key lookup of a trusted identity provider. */
export type IdentityProviderKeys = ReturnType<typeof remoteKeySet>;

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
  /**
   * Finds the client of a request, or throws `ClientError`; with the request's `address`, a
   * metadata document fetch counts against that address's budget (throws `RateLimited`).
   */
  client(clientId: string, address?: string): Promise<KnownClient>;
  /** Counts a request against a rate-limit budget; throws `RateLimited` when it is spent. */
  limit(
    kind: 'address' | 'register' | 'client' | 'cimd',
    endpoint: string,
    who: string,
  ): Promise<void>;
  /** Signs an access token for a token family (`idp`: where its subject comes from; default the upstream). */
  sign(
    family: TokenFamily,
    familyId: string,
    scopes: readonly string[],
    idp?: string,
  ): Promise<string>;
  /** The key lookups of the trusted identity providers (ID-JAG), by issuer. */
  readonly identityProviders: ReadonlyMap<string, IdentityProviderKeys>;
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
  /** The upstream tokens, sealed; empty for a machine grant (no upstream sign-in). */
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
