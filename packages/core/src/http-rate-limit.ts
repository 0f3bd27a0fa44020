import {
  defaultIdentify,
  MemoryRateLimitStore,
  type Identify,
  type RateLimitStore,
} from './protocol/index.js';
import type { HttpRequestView } from './transports/http/index.js';

/**
 * The endpoint-wide rate limit of an HTTP handler: at most `max` requests per `perMs` per client
 * address (`key: 'address'`, the default; requests whose address the runtime does not give
 * share one counter), per authenticated identity (`'identity'`, by address when
 * unauthenticated), or computed by a function.
 *
 * @example
 * ```ts
 * const mcp = createHttpHandler(server, { rateLimit: { max: 300, perMs: 60_000 } });
 * // over the limit: 429 Too Many Requests, Retry-After: <seconds>
 * ```
 */
export interface EndpointRateLimit {
  readonly max: number;
  readonly perMs: number;
  /** What requests are counted by: the client address (default), the identity, or a function. */
  readonly key?: 'address' | 'identity' | ((req: HttpRequestView, auth: unknown) => string);
  /** Where the counters live (default: this process's memory). */
  readonly store?: RateLimitStore;
  /** How the authentication hook's result names the caller (for `key: 'identity'`). */
  readonly identify?: Identify;
}

/** The endpoint's admission check: the ms a request must wait, 0 when it is served now. */
export function endpointLimiter(
  limit: EndpointRateLimit,
): (req: HttpRequestView, auth: unknown) => number | Promise<number> {
  const {
    max,
    perMs,
    key = 'address',
    store = new MemoryRateLimitStore(),
    identify = defaultIdentify,
  } = limit;
  if (!Number.isInteger(max) || max < 1 || !(perMs > 0)) {
    throw new Error(
      `rateLimit must be { max: <integer ≥ 1>, perMs: <ms > 0> }, got ${JSON.stringify({ max, perMs })}`,
    );
  }
  const address = (req: HttpRequestView) => req.remoteAddress ?? 'unknown';
  const keyOf =
    typeof key === 'function'
      ? key
      : key === 'identity'
        ? (req: HttpRequestView, auth: unknown) => identify(auth) ?? address(req)
        : address;
  return (req, auth) => store.hit(`http\0${keyOf(req, auth)}`, max, perMs);
}
