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
  /**
   * How long an inactive answer ("not active") is reused, in ms (default 10 s; 0: never): a
   * flood of one bogus or revoked token asks the authorization server once, not once per
   * request.
   */
  readonly inactiveCacheTtlMs?: number;
  /** Most answers kept, active and inactive (default 1000); the oldest is dropped first. */
  readonly cacheMaxEntries?: number;
  /** Time allowed for one introspection request, in ms (default 5 s); then 503. */
  readonly timeoutMs?: number;
}

/**
 * Verifies opaque access tokens by asking the authorization server (RFC 7662). Answers are cached
 * for a short, bounded time, keyed by a hash of the token, inactive ones too (briefly), and
 * requests for the same token at once share one call. An inactive token is a 401; an
 * unreachable or failing endpoint is a 503 (not cached).
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
  const inactiveTtl = options.inactiveCacheTtlMs ?? 10_000;
  const max = options.cacheMaxEntries ?? 1000;
  // An answer, or the refusal of a token the server called not active (or expired, or for
  // another resource: what it said cannot change within the TTL).
  const cache = new Map<string, { info?: AuthInfo; refusal?: InvalidTokenError; until: number }>();
  // Requests for the same token at once share one introspection call.
  const asking = new Map<string, Promise<AuthInfo>>();
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  const remember = (
    key: string,
    entry: { info?: AuthInfo; refusal?: InvalidTokenError; until: number },
  ) => {
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(key, entry);
  };

  const introspect = async (token: string, key: string): Promise<AuthInfo> => {
    const now = Date.now();
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
    const refuse = (message: string): never => {
      const refusal = new InvalidTokenError(message);
      if (inactiveTtl > 0) remember(key, { refusal, until: now + inactiveTtl });
      throw refusal;
    };
    if (answer.active !== true)
      refuse('the access token is not active (revoked, expired or unknown)');
    if (typeof answer.exp === 'number' && answer.exp * 1000 <= now)
      refuse('the access token has expired');
    const aud = answer.aud;
    if (
      aud !== undefined &&
      !(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))
    ) {
      refuse('the access token was not issued for this resource');
    }
    const info = authInfoOf(answer);
    const until = Math.min(
      now + ttl,
      typeof answer.exp === 'number' ? answer.exp * 1000 : Infinity,
    );
    remember(key, { info, until });
    return info;
  };

  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) {
      if (hit.refusal) throw new InvalidTokenError(hit.refusal.message);
      return hit.info!;
    }
    if (hit) cache.delete(key);
    let pending = asking.get(key);
    if (!pending) {
      pending = introspect(token, key).finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    return pending;
  };
}
