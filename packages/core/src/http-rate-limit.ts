import {
  defaultIdentify,
  MemoryRateLimitStore,
  type Identify,
  type RateLimitStore,
} from './protocol/index.js';
import { checkRateLimit, type RateLimit } from './registry/index.js';
import type { EndpointAdmission, HttpRequestView } from './transports/http/index.js';

/** What the endpoint counts with: the server's `limits.rateLimitStore` and `limits.identify`. */
export interface EndpointCounting {
  readonly rateLimitStore?: RateLimitStore;
  readonly identify?: Identify;
}

/**
 * The endpoint's admission check: the ms a request must wait, 0 when it is served now. The
 * endpoint sees a request before any session exists, so `session` counts per address, like the
 * default `address`; those and `global` need no identity, so they are checked before
 * authentication (a flood of bad tokens never reaches the token verifier and its issuer).
 * `identity` is checked after it.
 */
export function endpointLimiter(
  value: RateLimit,
  counting: EndpointCounting = {},
): EndpointAdmission {
  const { max, perMs } = checkRateLimit(value, 'createHttpHandler') as RateLimit;
  const key = value.key ?? 'address';
  // Read at each request: a server that shares its state (a Redis store) switches its counters
  // to the shared ones after this handler was made.
  const own = new MemoryRateLimitStore();
  const identify = counting.identify ?? defaultIdentify;
  const address = (req: HttpRequestView) => req.remoteAddress ?? 'unknown';
  // Tool counters are keyed by tool name, which cannot contain \0: a key starting with it is the
  // endpoint's even when tools and endpoint share one store.
  const keyOf =
    key === 'global'
      ? () => '\0endpoint'
      : key === 'identity'
        ? (req: HttpRequestView, auth: unknown) => `\0endpoint\0${identify(auth) ?? address(req)}`
        : (req: HttpRequestView) => `\0endpoint\0${address(req)}`;
  const admit = (req: HttpRequestView, auth: unknown) =>
    (counting.rateLimitStore ?? own).hit(keyOf(req, auth), max, perMs);
  return Object.assign(admit, { beforeAuthentication: key !== 'identity' });
}
