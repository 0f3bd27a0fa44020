import { randomBytes, randomUUID } from 'node:crypto';
import { type SharedStore, StoreUnavailableError } from '@mcp-fw/core/http';
import { createClient } from '@redis/client';
import { RedisBus } from './bus.js';
import { RedisRateLimitStore, RedisUsedRounds } from './counters.js';
import { RedisSessionStates } from './session-states.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import type { Commands } from './scripts.js';
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
  /** State-setting messages kept per legacy session (subscriptions, log level; default 1,000). */
  readonly maxReplayPerSession?: number;
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
  const requestStateKey = await sharedKey(commands, `${prefix}request-state-key`);
  return {
    nodeId,
    sessions: new RedisSessionRecords(commands, prefix, o.maxReplayPerSession),
    // Written behind, without a timeout: a burst of events may take longer to drain than a
    // request may wait, and nobody waits on them.
    events: new RedisEventStore(wrap(raw, undefined, commands), prefix, nodeId, o.events),
    bus: new RedisBus(client, subscriber, prefix),
    usedRounds: new RedisUsedRounds(commands, prefix),
    rateLimits: new RedisRateLimitStore(commands, prefix),
    tasks: new RedisTaskRecords(commands, prefix),
    sessionState: new RedisSessionStates(commands, prefix),
    requestStateKey,
    async close() {
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}

/** The key that signs `requestState`: made by the first instance, read by every other. */
async function sharedKey(redis: Commands, key: string): Promise<string> {
  await redis.sendCommand(['SET', key, randomBytes(32).toString('hex'), 'NX']);
  const value = await redis.sendCommand<string | null>(['GET', key]);
  if (typeof value !== 'string') throw new Error(`could not read ${key} from Redis`);
  return value;
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
