import { MemoryRateLimitStore, type RateLimitStore } from '@mcp-fw/core';

/** A budget: at most `max` requests per `perMs` milliseconds (a fixed window). */
export interface Budget {
  readonly max: number;
  readonly perMs: number;
}

/**
 * The rate limits of an `authorizationServer`'s endpoints (its `rateLimits` option). Each is
 * counted per endpoint; a request over a budget is answered 429 with `Retry-After` and an OAuth
 * error body (a page at the browser endpoints), before any work (a store read, a fetch, a
 * signature check) is done for it.
 *
 * @example
 * ```ts
 * import { RedisRateLimitStore } from '@mcp-fw/redis';
 * // authorizationServer({ …, rateLimits: { perAddress: { max: 30, perMs: 60_000 }, store: sharedStore } })
 * ```
 */
export interface AuthorizationRateLimits {
  /**
   * Per client address, at `/authorize`, `/callback`, the consent POST, `/token` and `/revoke`
   * (default 60 a minute each). The address is the connection's, or the one `trustedProxies`
   * vouch for.
   */
  readonly perAddress?: Budget;
  /** Per client address at `/register` (default 20 a minute): each registration is stored. */
  readonly registrations?: Budget;
  /** Per `client_id` at `/authorize`, `/token` and `/revoke` (default 60 a minute each). */
  readonly perClient?: Budget;
  /**
   * Client ID Metadata Document fetches (cache misses) per client address (default 30 a
   * minute): each sends a request to a URL the client chose.
   */
  readonly metadataDocumentFetches?: Budget;
  /**
   * Where the counters live. Default: the authorization server's `store` when it keeps
   * counters too (`redisAuthorizationStore` does, so the budgets hold cluster-wide), else this
   * process's memory (at most 100 000 keys, the oldest dropped first).
   */
  readonly store?: RateLimitStore;
}

const MINUTE = 60_000;

/** A request over a budget: answered 429 with `Retry-After`. */
export class RateLimited extends Error {
  override readonly name = 'RateLimited';
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** Counts requests against the budgets; `check` throws {@link RateLimited} when one is spent. */
export class AuthorizationLimiter {
  readonly #store: RateLimitStore;
  readonly #budgets: Record<'address' | 'register' | 'client' | 'cimd', Budget | undefined>;

  /** `shared`: the authorization store, whose counters are used when it keeps them (Redis). */
  constructor(options: AuthorizationRateLimits | false | undefined, shared?: unknown) {
    const o = options === false ? undefined : (options ?? {});
    this.#store =
      o?.store ??
      (typeof (shared as RateLimitStore | undefined)?.hit === 'function'
        ? (shared as RateLimitStore)
        : new MemoryRateLimitStore());
    this.#budgets = {
      address: o && (o.perAddress ?? { max: 60, perMs: MINUTE }),
      register: o && (o.registrations ?? { max: 20, perMs: MINUTE }),
      client: o && (o.perClient ?? { max: 60, perMs: MINUTE }),
      cimd: o && (o.metadataDocumentFetches ?? { max: 30, perMs: MINUTE }),
    };
    for (const [name, b] of Object.entries(this.#budgets))
      if (b && !(Number.isInteger(b.max) && b.max > 0 && b.perMs > 0))
        throw new TypeError(
          `authorizationServer: rateLimits ${name}: max must be a positive integer and perMs positive (got ${JSON.stringify(b)})`,
        );
  }

  /** Counts one request of `who` at `endpoint` against the `kind` budget. */
  async check(
    kind: 'address' | 'register' | 'client' | 'cimd',
    endpoint: string,
    who: string,
  ): Promise<void> {
    const budget = this.#budgets[kind];
    if (!budget) return;
    const wait = await this.#store.hit(
      `as\0${kind}\0${endpoint}\0${who}`,
      budget.max,
      budget.perMs,
    );
    if (wait > 0)
      throw new RateLimited(
        wait,
        kind === 'cimd'
          ? `the address ${who} made more than ${budget.max} requests needing a client metadata document fetch in ${budget.perMs / 1000} s; retry after ${Math.ceil(wait / 1000)} s`
          : `${kind === 'client' ? `client ${who}` : `the address ${who}`} sent more than ${budget.max} requests to ${endpoint} in ${budget.perMs / 1000} s; retry after ${Math.ceil(wait / 1000)} s`,
      );
  }
}
