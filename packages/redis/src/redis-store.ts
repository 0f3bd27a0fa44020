import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type SharedStore, StoreUnavailableError } from '@mcp-fw/core/http';
import { createClient } from '@redis/client';
import { RedisBus } from './bus.js';
import { RedisRateLimitStore, RedisUsedRounds } from './counters.js';
import { RedisSessionStates } from './session-states.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { type Commands, Script } from './scripts.js';
import { RedisSessionRecords } from './session-records.js';
import { RedisTaskRecords } from './task-records.js';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** Prefix of every key and channel (default `mcp:`), so several servers can share one Redis. */
  readonly prefix?: string;
  /** Bounds of the event logs kept for `Last-Event-ID` resumption. */
  readonly events?: RedisEventStoreOptions;
  /**
   * Most bytes one legacy session's record may take in Redis (default 64 KiB): its `initialize`,
   * log level and subscribed URIs. An `initialize` or a `resources/subscribe` that would make it
   * larger is refused with 413 naming this option.
   */
  readonly maxSessionRecordBytes?: number;
  /**
   * Commands waiting to be sent or answered at most (default 100,000); past it new ones fail at
   * once (a request gets 503; an event written behind is not kept for resumption).
   */
  readonly maxQueuedCommands?: number;
  /** How long to try to reach Redis at start before giving up with an error (default 10,000 ms). */
  readonly startupTimeoutMs?: number;
  /** Longest wait for Redis to answer a command, in ms (default 2,000); then the request gets 503. */
  readonly commandTimeoutMs?: number;
  /** Told when Redis goes away and comes back (default: a line on stderr each time). */
  readonly onStatus?: (status: 'down' | 'up', detail?: string) => void;
  /**
   * A secret (at least 32 characters) every instance is given, from which the key that signs
   * `requestState` is derived: then the key never depends on Redis, and survives Redis losing
   * its data. Without it the key is made by the first instance and kept in Redis; each instance
   * checks every `keyCheckMs` that Redis still holds its key (writing it back if Redis lost it,
   * taking Redis's on a conflict, saying so on stderr), so instances never stay split.
   * `serveFromArgs` reads it from `MCP_REQUEST_STATE_SECRET`.
   */
  readonly requestStateSecret?: string;
  /** How often the key kept in Redis is checked, in ms (default 2,000). */
  readonly keyCheckMs?: number;
  /** Told when the `requestState` key kept in Redis was restored or replaced (default: stderr). */
  readonly onKeyChange?: (message: string) => void;
}

/**
 * Opens the state every instance of one server shares on one Redis: legacy sessions, their event
 * logs, the message bus, answered input rounds, rate-limit counters, tasks, handlers' `ctx.state`
 * and the `requestState` key.
 * Pass it as the `store` option of `serveHttp` / `createHttpHandler`, or run a server's
 * `serveFromArgs` entry with `--redis <url>` or `REDIS_URL`.
 *
 * While Redis is unreachable, commands fail at once (no offline queue): requests that need
 * shared state get 503 with `Retry-After`, others are served, and the clients reconnect by
 * themselves when Redis returns.
 *
 * @example
 * ```ts
 * import { serveHttp } from '@mcp-fw/core/node';
 * import { redisStore } from '@mcp-fw/redis';
 * const store = await redisStore(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * await serveHttp(server, { host: '0.0.0.0', port: 3000, store });
 * ```
 */
export async function redisStore(options: string | RedisStoreOptions): Promise<SharedStore> {
  const o: RedisStoreOptions = typeof options === 'string' ? { url: options } : options;
  const prefix = o.prefix ?? 'mcp:';
  const timeoutMs = o.commandTimeoutMs ?? 2_000;
  const nodeId = randomUUID().slice(0, 8);
  // Checked before connecting: a bad secret is a configuration error, reported at once.
  const derived = o.requestStateSecret === undefined ? undefined : derivedKey(o.requestStateSecret);
  let down = false;
  const status =
    o.onStatus ??
    ((state: 'down' | 'up', detail?: string) =>
      process.stderr.write(
        state === 'down'
          ? `[mcp-fw/redis] Redis unreachable (${detail}); requests that need shared state get 503 until it returns\n`
          : '[mcp-fw/redis] Redis reachable again\n',
      ));
  const client = createClient({
    url: o.url,
    disableOfflineQueue: true,
    // Writes behind (event logs) wait in this queue while Redis is slow; past it they are dropped.
    commandsQueueMaxLength: o.maxQueuedCommands ?? 100_000,
    socket: {
      connectTimeout: timeoutMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
    },
  });
  const onError = (error: unknown) => {
    if (down) return;
    down = true;
    status('down', error instanceof Error ? error.message : String(error));
  };
  client.on('error', onError);
  client.on('ready', () => {
    if (!down) return;
    down = false;
    status('up');
  });
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  let lastError = '';
  client.on('error', (error: unknown) => {
    lastError = error instanceof Error ? error.message : String(error);
  });
  // Once serving, an outage is waited out; at start an unreachable Redis is a configuration
  // error to report, not a reason to hang.
  const startupMs = o.startupTimeoutMs ?? 10_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([client.connect(), subscriber.connect()]),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `@mcp-fw/redis: cannot reach Redis at ${redacted(o.url)} within ${startupMs} ms (${lastError || 'no answer'}); start Redis, or fix --redis / REDIS_URL`,
              ),
            ),
          startupMs,
        );
      }),
    ]);
  } catch (error) {
    client.destroy();
    subscriber.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const raw = client as unknown as Commands;
  const commands = wrap(raw, timeoutMs);
  const key =
    derived ??
    (await SharedKey.open(
      commands,
      `${prefix}request-state-key`,
      o.keyCheckMs ?? 2_000,
      o.onKeyChange ?? ((line) => process.stderr.write(`[mcp-fw/redis] ${line}\n`)),
    ).catch((error: unknown) => {
      client.destroy();
      subscriber.destroy();
      throw error;
    }));
  return {
    nodeId,
    sessions: new RedisSessionRecords(commands, prefix, o.maxSessionRecordBytes),
    // Written behind, without a timeout: a burst of events may take longer to drain than a
    // request may wait, and nobody waits on them.
    events: new RedisEventStore(wrap(raw, undefined, commands), prefix, nodeId, o.events),
    bus: new RedisBus(client, subscriber, prefix),
    usedRounds: new RedisUsedRounds(commands, prefix),
    rateLimits: new RedisRateLimitStore(commands, prefix),
    tasks: new RedisTaskRecords(commands, prefix),
    sessionState: new RedisSessionStates(commands, prefix),
    get requestStateKey() {
      return key.current;
    },
    async close() {
      key.stop?.();
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}

/** The `requestState` key derived from a secret every instance is given. */
function derivedKey(secret: string): { readonly current: string; stop?: () => void } {
  if (typeof secret !== 'string' || secret.length < 32)
    throw new Error(
      '@mcp-fw/redis: requestStateSecret must be at least 32 characters (e.g. `openssl rand -hex 32`), the same on every instance',
    );
  return { current: createHmac('sha256', secret).update('mcp-fw requestState key').digest('hex') };
}

/**
 * Reads the key, or writes `ARGV[1]` when there is none: the key, and whether it was written.
 * KEYS: the key. ARGV: a key to write when missing.
 */
const CLAIM = new Script(`
local value = redis.call('GET', KEYS[1])
if value then return {value, 0} end
redis.call('SET', KEYS[1], ARGV[1])
return {ARGV[1], 1}
`);

/**
 * The key that signs `requestState` when it is kept in Redis: made by the first instance, read
 * by every other, and checked on a timer. Redis losing its data would otherwise split the
 * instances (one restarting makes a new key; the others sign with the old one, and each
 * refuses the other's rounds): an instance that finds the key missing writes its own back, and
 * one that finds another takes it, saying so, so every instance soon signs with the same one.
 */
class SharedKey {
  #timer?: ReturnType<typeof setInterval>;

  private constructor(
    private readonly redis: Commands,
    private readonly key: string,
    private readonly tell: (message: string) => void,
    public current: string,
  ) {}

  static async open(
    redis: Commands,
    key: string,
    checkMs: number,
    tell: (message: string) => void,
  ): Promise<SharedKey> {
    const [value] = await CLAIM.run<[string, number]>(
      redis,
      [key],
      [randomBytes(32).toString('hex')],
    );
    if (typeof value !== 'string') throw new Error(`could not read ${key} from Redis`);
    const shared = new SharedKey(redis, key, tell, value);
    shared.#timer = setInterval(() => void shared.check(), checkMs);
    (shared.#timer as { unref?: () => void }).unref?.();
    return shared;
  }

  /** Compares the key in Redis with this instance's (a missed check is made at the next one). */
  async check(): Promise<void> {
    let value: string;
    let written: number;
    try {
      [value, written] = await CLAIM.run<[string, number]>(this.redis, [this.key], [this.current]);
    } catch {
      return;
    }
    if (written === 1) {
      this.tell(
        `the requestState key was missing from Redis (did Redis lose its data?); this instance wrote its key back, so instances that start now use it too. Set requestStateSecret (MCP_REQUEST_STATE_SECRET) so the key never depends on Redis`,
      );
    } else if (value !== this.current) {
      this.current = value;
      this.tell(
        `the requestState key in Redis is not this instance's (did Redis lose its data while an instance restarted?); this instance now signs with the key in Redis, and input rounds it issued before are refused ("not issued by this server"). Set requestStateSecret (MCP_REQUEST_STATE_SECRET) so the key never depends on Redis`,
      );
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/**
 * Each command bounded by `timeoutMs` (reads the event log with `reads`' bound); failures to
 * reach Redis become {@link StoreUnavailableError}s (503 with `Retry-After`).
 */
function wrap(redis: Commands, timeoutMs: number | undefined, reads?: Commands): Commands {
  return {
    async sendCommand<T>(args: readonly string[]): Promise<T> {
      if (reads && args[0] === 'XRANGE') return reads.sendCommand<T>(args);
      try {
        return await redis.sendCommand<T>(
          args,
          timeoutMs === undefined ? undefined : { timeout: timeoutMs },
        );
      } catch (error) {
        const message = error instanceof Error ? error.message || error.name : String(error);
        // Script and data errors are bugs, not outages: they keep their own message.
        if (/^(ERR|WRONGTYPE|NOSCRIPT)/.test(message)) throw error;
        throw new StoreUnavailableError(`Redis cannot be reached (${message})`);
      }
    },
  };
}

/** The URL without its password, for messages. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
