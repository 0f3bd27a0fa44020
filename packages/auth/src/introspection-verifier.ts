import { createHash } from 'node:crypto';
import {
  authInfoOf,
  InvalidTokenError,
  VerifierUnavailableError,
  type AuthInfo,
  type TokenVerifier,
} from './auth-info.js';

/** The options of {@link introspectionVerifier}: where to introspect opaque tokens, and as whom. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's RFC 7662 introspection endpoint. */
  readonly endpoint: string;
  /** This server's client credentials at the authorization server (HTTP Basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * This server's canonical URL: an answer whose `aud` does not include it is refused (RFC 8707).
   * Answers without `aud` are accepted, as the authorization server vouches for the token.
   */
  readonly audience: string;
  /** How long an answer is reused, in ms (default 60 s; never past the token's `exp`). */
  readonly cacheTtlMs?: number;
  /** Most answers kept (default 1000); the oldest is dropped first. */
  readonly cacheMaxEntries?: number;
  /** Time allowed for one introspection request, in ms (default 5 s); then 503. */
  readonly timeoutMs?: number;
}

/**
 * Verifies opaque access tokens by asking the authorization server (RFC 7662). Answers are cached
 * for a short, bounded time, keyed by a hash of the token. An inactive token is a 401; an
 * unreachable or failing endpoint is a 503.
 *
 * @example
 * ```ts
 * import { introspectionVerifier } from '@mcp-fw/auth';
 * const verify = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/introspect',
 *   clientId: 'mcp-server',
 *   clientSecret: process.env.INTROSPECTION_SECRET ?? '',
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const ttl = options.cacheTtlMs ?? 60_000;
  const max = options.cacheMaxEntries ?? 1000;
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.until > now) return hit.info;
    if (hit) cache.delete(key);
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(options.endpoint, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
      if (typeof answer !== 'object' || answer === null)
        throw new Error('the answer is not a JSON object');
    } catch (error) {
      throw new VerifierUnavailableError(
        `the token introspection endpoint ${options.endpoint} failed (${(error as Error).message})`,
        {
          cause: error,
        },
      );
    }
    if (answer.active !== true)
      throw new InvalidTokenError('the access token is not active (revoked, expired or unknown)');
    if (typeof answer.exp === 'number' && answer.exp * 1000 <= now)
      throw new InvalidTokenError('the access token has expired');
    const aud = answer.aud;
    if (
      aud !== undefined &&
      !(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))
    ) {
      throw new InvalidTokenError('the access token was not issued for this resource');
    }
    const info = authInfoOf(answer);
    const until = Math.min(
      now + ttl,
      typeof answer.exp === 'number' ? answer.exp * 1000 : Infinity,
    );
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(key, { info, until });
    return info;
  };
}
