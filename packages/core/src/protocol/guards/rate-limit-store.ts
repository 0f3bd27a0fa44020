/**
 * Where rate-limit counters live. The default keeps them in this process; implement this to
 * share them between instances (Redis, a database). `hit` counts one call under `key` in the
 * current window of `perMs` and answers 0 when it is within `max`, else the milliseconds until
 * the window ends (a refused call is not counted).
 *
 * @example
 * ```ts
 * const redisStore: RateLimitStore = {
 *   async hit(key, max, perMs) {
 *     const count = await redis.incr(key);
 *     if (count === 1) await redis.pexpire(key, perMs);
 *     if (count <= max) return 0;
 *     await redis.decr(key);
 *     return Math.max(1, await redis.pttl(key));
 *   },
 * };
 * createServer({ name: 'x', version: '1', providers: [Tools], limits: { rateLimitStore: redisStore } });
 * ```
 */
export interface RateLimitStore {
  /** Counts one call under `key`; resolves to 0 when allowed, else the milliseconds until the next allowed call. */
  hit(key: string, max: number, perMs: number): number | Promise<number>;
}

const SWEEP_EVERY_MS = 60_000;

interface Window {
  end: number;
  count: number;
}

/**
 * Fixed windows in a Map, bounded: expired windows are swept out once a minute (when a new key
 * arrives), and past `maxKeys` keys the oldest go, so a flood of distinct keys (sessions,
 * addresses) cannot grow memory without end.
 *
 * @example
 * ```ts
 * const store = new MemoryRateLimitStore();
 * store.hit('add\0alice', 2, 60_000); // 0: allowed
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>();
  #sweepAt = 0;

  constructor(private readonly maxKeys = 100_000) {}

  get size(): number {
    return this.#windows.size;
  }

  hit(key: string, max: number, perMs: number, now = Date.now()): number {
    let window = this.#windows.get(key);
    if (window === undefined) {
      if (now >= this.#sweepAt || this.#windows.size >= this.maxKeys) this.#evict(now);
      window = { end: now + perMs, count: 0 };
      this.#windows.set(key, window);
    } else if (now >= window.end) {
      window.end = now + perMs;
      window.count = 0;
    }
    if (window.count >= max) return Math.max(1, window.end - now);
    window.count++;
    return 0;
  }

  #evict(now: number): void {
    this.#sweepAt = now + SWEEP_EVERY_MS;
    for (const [key, window] of this.#windows) if (now >= window.end) this.#windows.delete(key);
    if (this.#windows.size < this.maxKeys) return;
    const [oldest] = this.#windows.keys();
    this.#windows.delete(oldest);
  }
}
