/**
 * Who a verified access token speaks for: what handlers read as `ctx.auth` on a server protected
 * by {@link oauthResource}. The framework never passes the token on (MCP forbids token
 * passthrough); call upstream APIs with a token of their own, obtained by token exchange
 * (RFC 8693) with {@link AuthInfo.token} as the subject token.
 *
 * @example
 * ```ts
 * import type { AuthInfo } from '@mcp-fw/auth';
 * function owner(auth: AuthInfo): string {
 *   return auth.subject ?? auth.clientId ?? 'anonymous';
 * }
 * ```
 */
export interface AuthInfo {
  /** The resource owner (`sub`), when the token names one. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`). */
  readonly clientId?: string;
  /** The granted scopes. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** Every claim of the token (JWT) or of the introspection answer. */
  readonly claims: Readonly<Record<string, unknown>>;
  /**
   * The access token itself, only to exchange it for a token of an upstream API (RFC 8693).
   * Never send it anywhere else: it was issued for this server alone. Not enumerable, so logging
   * or serialising `ctx.auth` does not reveal it.
   */
  readonly token?: string;
  /**
   * The caller's tokens at the upstream identity provider, on a server whose tokens come from
   * its own `authorizationServer` (`@mcp-fw/auth/server`); undefined otherwise. Not enumerable.
   */
  readonly upstream?: UpstreamAccess;
}

/**
 * What a tool can do with the upstream identity provider's tokens of the caller:
 * `ctx.auth.upstream` on a server protected by an `authorizationServer` (`@mcp-fw/auth/server`). The tokens are
 * kept sealed in the store; `accessToken()` refreshes an expired one with the upstream's
 * refresh token. Not enumerable on `ctx.auth`, so it is never logged or serialised.
 *
 * @example
 * ```ts
 * import { Tool, type Context } from '@mcp-fw/core';
 * import { authInfo } from '@mcp-fw/auth';
 * class Repos {
 *   @Tool('My GitHub repositories')
 *   async repos(_: object, ctx: Context) {
 *     const token = await authInfo(ctx).upstream!.accessToken();
 *     const res = await fetch('https://api.github.com/user/repos', { headers: { authorization: `Bearer ${token}` } });
 *     return JSON.stringify((await res.json()).map((r: { full_name: string }) => r.full_name));
 *   }
 * }
 * ```
 */
export interface UpstreamAccess {
  /** The upstream provider's name (e.g. `github`). */
  readonly provider: string;
  /** The caller's current upstream access token (refreshed when expired). */
  accessToken(): Promise<string>;
}

/**
 * The caller's {@link AuthInfo}, typed: what `ctx.auth` holds on a server protected by
 * {@link oauthResource}. Throws when the request was not authenticated by it (stdio, or a
 * server without `oauthResource`), so a handler never mistakes "no identity" for "anyone".
 *
 * @example
 * ```ts
 * import { Tool, type Context } from '@mcp-fw/core';
 * import { authInfo } from '@mcp-fw/auth';
 * class Notes {
 *   @Tool('Who am I')
 *   whoami(_: object, ctx: Context) {
 *     return authInfo(ctx).subject ?? 'unknown';
 *   }
 * }
 * ```
 */
export function authInfo(ctx: { readonly auth: unknown }): AuthInfo {
  const auth = ctx.auth as Partial<AuthInfo> | undefined;
  if (!auth || !Array.isArray(auth.scopes) || typeof auth.claims !== 'object') {
    throw new Error(
      'authInfo: this request carries no OAuth identity; serve the server over HTTP with oauthResource(...)',
    );
  }
  return auth as AuthInfo;
}

/** Checks one bearer token: resolves with its {@link AuthInfo}, or throws a {@link TokenError}. */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

/** The token was checked and is not acceptable: a 401 with `error="invalid_token"`. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/**
 * The token could not be checked now (the issuer's keys or the introspection endpoint are
 * unreachable or answer nonsense): a 503, so the client retries instead of re-authorising.
 */
export class VerifierUnavailableError extends Error {
  override readonly name = 'VerifierUnavailableError';
}

/** What a {@link TokenVerifier} throws: a bad token (401) or an unreachable issuer (503). */
export type TokenError = InvalidTokenError | VerifierUnavailableError;

/** The scopes a token grants: RFC 9068 / RFC 7662 `scope` (space-separated), else an `scp` list. */
export function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter((s) => s.length > 0);
  if (Array.isArray(claims.scp))
    return claims.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The {@link AuthInfo} of verified claims. */
export function authInfoOf(claims: Record<string, unknown>): AuthInfo {
  const clientId =
    typeof claims.client_id === 'string'
      ? claims.client_id
      : typeof claims.azp === 'string'
        ? claims.azp
        : undefined;
  return {
    subject: typeof claims.sub === 'string' ? claims.sub : undefined,
    clientId,
    scopes: scopesOf(claims),
    expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
    claims,
  };
}
