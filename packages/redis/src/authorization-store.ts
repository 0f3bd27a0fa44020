import { createClient } from '@redis/client';
import { RedisRateLimitStore } from './counters.js';
import type { Commands } from './scripts.js';

/** Options of {@link redisAuthorizationStore}. */
export interface RedisAuthorizationStoreOptions {
  /** The Redis URL, e.g. `redis://127.0.0.1:6379`. */
  readonly url: string;
  /** Prefix of every key (default `mcp:as:`). */
  readonly prefix?: string;
  /** Longest wait for Redis to answer, in ms (default 2,000); then the OAuth request fails (500). */
  readonly commandTimeoutMs?: number;
}

/**
 * The store of an `authorizationServer` (`@mcp-fw/auth/server`) on Redis, so that every instance
 * of a cluster shares pending sign-ins, codes, clients, consents, token families and the client
 * metadata document cache: a sign-in started on one instance completes on another. `take` is
 * Redis `GETDEL` (6.2+), so a code or refresh token is used once across the cluster. Give
 * every instance the same `secret` and `signingKey` too.
 *
 * @example
 * ```ts
 * import { redisAuthorizationStore } from '@mcp-fw/redis';
 * const store = await redisAuthorizationStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
 * // authorizationServer({ …, store, secret: process.env.AS_SECRET, signingKey: JSON.parse(process.env.AS_KEY!) })
 * ```
 */
export async function redisAuthorizationStore(
  options: string | RedisAuthorizationStoreOptions,
): Promise<RedisAuthorizationStore> {
  const o = typeof options === 'string' ? { url: options } : options;
  const timeout = o.commandTimeoutMs ?? 2_000;
  const client = createClient({
    url: o.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeout,
      reconnectStrategy: (n: number) => Math.min(50 * 2 ** n, 2_000),
    },
  });
  client.on('error', () => undefined);
  await client.connect();
  return new RedisAuthorizationStore(
    client as unknown as Commands,
    o.prefix ?? 'mcp:as:',
    timeout,
    () => client.close(),
  );
}

/**
 * An `AuthorizationStore` on one Redis connection (see {@link redisAuthorizationStore}). It is
 * a `RateLimitStore` too (`hit`), so the authorization server's endpoint rate limits, which
 * count in its store by default, hold cluster-wide.
 */
export class RedisAuthorizationStore {
  readonly #counters: RedisRateLimitStore;

  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
    private readonly timeoutMs: number,
    private readonly closer: () => Promise<unknown> = async () => {},
  ) {
    this.#counters = new RedisRateLimitStore(redis, prefix);
  }

  /** Counts one request under `key` in a window of `perMs`: 0 when within `max`, else the ms to wait. */
  hit(key: string, max: number, perMs: number): Promise<number> {
    return this.#counters.hit(key, max, perMs);
  }

  #send<T>(args: string[]): Promise<T> {
    return this.redis.sendCommand<T>(args, { timeout: this.timeoutMs });
  }

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    return (await this.#send<string | null>(['GET', this.prefix + key])) ?? undefined;
  }

  /** Stores `value` under `key` for `ttlMs`. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#send([
      'SET',
      this.prefix + key,
      value,
      'PX',
      String(Math.max(1, Math.ceil(ttlMs))),
    ]);
  }

  /** Reads and deletes `key` atomically (GETDEL). */
  async take(key: string): Promise<string | undefined> {
    return (await this.#send<string | null>(['GETDEL', this.prefix + key])) ?? undefined;
  }

  /** Stores `value` under `key` for `ttlMs` only when absent (`SET NX`); true when stored. */
  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const answer = await this.#send<string | null>([
      'SET',
      this.prefix + key,
      value,
      'NX',
      'PX',
      String(Math.max(1, Math.ceil(ttlMs))),
    ]);
    return answer === 'OK';
  }

  /** Deletes `key`. */
  async delete(key: string): Promise<void> {
    await this.#send(['DEL', this.prefix + key]);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.closer();
  }
}
