import { JsonRpcError } from '../../jsonrpc/index.js';
import { StartupError } from '../../registry/index.js';
import { ErrorCode } from '../error-codes.js';

/**
 * Bounds on the state clients make the server keep between requests, each with a default a
 * single ordinary machine survives. Part of `createServer({ limits })`; the HTTP session caps
 * (`maxSessions`, `maxSessionsPerClient`) are options of the HTTP handler instead.
 *
 * @example
 * ```ts
 * createServer({ name: 'feeds', version: '1', providers: [Feeds], limits: { maxListenStreamsPerClient: 4, maxSubscriptionsPerStream: 500 } });
 * ```
 */
export interface StateLimits {
  /** `subscriptions/listen` streams open at once on the server (default 1000); beyond: -32000, HTTP 503. */
  readonly maxListenStreams?: number;
  /**
   * Listen streams one client may hold open: per identity (`limits.identify`), else per address,
   * else per connection (default 16); beyond: -32000, HTTP 429.
   */
  readonly maxListenStreamsPerClient?: number;
  /** Resource URIs one listen stream may subscribe to (default 100); a longer list: -32602. */
  readonly maxSubscriptionsPerStream?: number;
  /** Resource URIs one legacy session may subscribe to with `resources/subscribe` (default 100); beyond: -32000. */
  readonly maxSubscriptionsPerSession?: number;
  /** Resource subscriptions on the whole server, streams and sessions together (default 10,000); beyond: -32000, HTTP 503. */
  readonly maxSubscriptions?: number;
  /**
   * Server→client requests (`ctx.elicit`, `ctx.sample`, `ctx.roots`) awaiting an answer per
   * connection (default 32); beyond, the question fails with a `LimitError` (an `isError` result).
   */
  readonly maxPendingClientRequests?: number;
}

export type StateLimitName = keyof StateLimits;

/**
 * The defaults of {@link StateLimits}: what a server keeps for its clients when `limits` says nothing.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Feeds], limits: { maxListenStreams: DEFAULT_STATE_LIMITS.maxListenStreams * 4 } });
 * ```
 */
export const DEFAULT_STATE_LIMITS: Readonly<Required<StateLimits>> = Object.freeze({
  maxListenStreams: 1000,
  maxListenStreamsPerClient: 16,
  maxSubscriptionsPerStream: 100,
  maxSubscriptionsPerSession: 100,
  maxSubscriptions: 10_000,
  maxPendingClientRequests: 32,
});

/** The limits with their defaults, each checked at startup (an integer ≥ 1). */
export function resolveStateLimits(limits: StateLimits): Required<StateLimits> {
  const resolved = { ...DEFAULT_STATE_LIMITS };
  for (const name of Object.keys(DEFAULT_STATE_LIMITS) as StateLimitName[]) {
    const value = limits[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) {
      throw new StartupError(
        'INVALID_LIMIT',
        `limits: ${name} must be an integer ≥ 1, got ${JSON.stringify(value)}.`,
      );
    }
    resolved[name] = value;
  }
  return resolved;
}

/** How long a client refused at a stream or subscription cap is told to wait: streams end at any time. */
const RETRY_AFTER_S = 30;

/**
 * The error of a request refused at a cap: -32000 with `data.limit`, and on HTTP the status
 * (429 when the client's own share is used up, 503 when the server's is) and `Retry-After`.
 */
export function limitReached(
  limit: StateLimitName,
  scope: 'client' | 'server',
  message: string,
): JsonRpcError {
  return new JsonRpcError(ErrorCode.LimitReached, message, {
    limit,
    status: scope === 'client' ? 429 : 503,
    retryAfterS: RETRY_AFTER_S,
  });
}
