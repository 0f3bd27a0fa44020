import type { SessionRecord, SessionRecords, SharedSessionLimits } from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

/**
 * Opens a session unless a cap is reached. Sessions are counted in two sorted sets (all, and per
 * client) scored by their expiry, so expired ones are dropped before counting.
 * KEYS: record, all sessions, the client's sessions (or the record again when there is no client).
 * ARGV: now, idle ms, maxSessions, maxSessionsPerClient, record JSON, id, has client (1/0).
 */
const CREATE = new Script(`
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if ARGV[7] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'maxSessionsPerClient' end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'maxSessions' end
redis.call('SET', KEYS[1], ARGV[5], 'PX', idle)
redis.call('ZADD', KEYS[2], now + idle, ARGV[6])
if ARGV[7] == '1' then
  redis.call('ZADD', KEYS[3], now + idle, ARGV[6])
  redis.call('PEXPIRE', KEYS[3], idle)
end
return ''
`);

/**
 * Reads a record and restarts its idle expiry (in the sets too).
 * KEYS: record, all sessions. ARGV: now, idle ms, id, client-set key prefix.
 */
const TOUCH = new Script(`
local value = redis.call('GET', KEYS[1])
if not value then
  redis.call('ZREM', KEYS[2], ARGV[3])
  return false
end
local idle = tonumber(ARGV[2])
local at = tonumber(ARGV[1]) + idle
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('ZADD', KEYS[2], 'XX', at, ARGV[3])
local client = cjson.decode(value).c
if client then
  redis.call('ZADD', ARGV[4] .. client, 'XX', at, ARGV[3])
  redis.call('PEXPIRE', ARGV[4] .. client, idle)
end
return value
`);

/** Adds a state-setting message. KEYS: record. ARGV: frame, most kept. */
const APPEND = new Script(`
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local record = cjson.decode(value)
if #record.r >= tonumber(ARGV[2]) then return 0 end
table.insert(record.r, ARGV[1])
redis.call('SET', KEYS[1], cjson.encode(record), 'KEEPTTL')
return 1
`);

/** Ends a session. KEYS: record, all sessions. ARGV: id, client-set key prefix. */
const REMOVE = new Script(`
local value = redis.call('GET', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if not value then return 0 end
redis.call('DEL', KEYS[1])
local client = cjson.decode(value).c
if client then redis.call('ZREM', ARGV[2] .. client, ARGV[1]) end
return 1
`);

interface Stored {
  p?: string;
  c?: string;
  r: string[];
}

/**
 * Legacy sessions on Redis: one string key per session (its record as JSON) expiring after the
 * idle timeout, and two sorted sets that count sessions in all and per client for the caps.
 * Every operation is one atomic script, so caps hold however many instances open sessions.
 */
export class RedisSessionRecords implements SessionRecords {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
    /** State-setting messages kept per session (subscriptions and log level changes). */
    private readonly maxReplay = 1_000,
  ) {}

  async create(
    id: string,
    record: SessionRecord,
    limits: SharedSessionLimits,
  ): Promise<'maxSessions' | 'maxSessionsPerClient' | undefined> {
    const stored: Stored = { r: [...record.replay] };
    if (record.principal !== undefined) stored.p = record.principal;
    if (record.client !== undefined) stored.c = record.client;
    const refused = await CREATE.run<string>(
      this.redis,
      [
        this.#key(id),
        this.#all,
        record.client === undefined ? this.#key(id) : this.#client(record.client),
      ],
      [
        String(Date.now()),
        String(limits.idleTimeoutMs),
        String(limits.maxSessions),
        String(limits.maxSessionsPerClient),
        JSON.stringify(stored),
        id,
        record.client === undefined ? '0' : '1',
      ],
    );
    return refused === 'maxSessions' || refused === 'maxSessionsPerClient' ? refused : undefined;
  }

  async touch(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined> {
    const value = await TOUCH.run<string | null>(
      this.redis,
      [this.#key(id), this.#all],
      [String(Date.now()), String(idleTimeoutMs), id, `${this.prefix}client:`],
    );
    if (typeof value !== 'string') return undefined;
    const stored = JSON.parse(value) as Stored;
    return { principal: stored.p, client: stored.c, replay: stored.r };
  }

  async append(id: string, frame: string): Promise<boolean> {
    return (
      (await APPEND.run<number>(this.redis, [this.#key(id)], [frame, String(this.maxReplay)])) === 1
    );
  }

  async remove(id: string): Promise<boolean> {
    return (
      (await REMOVE.run<number>(
        this.redis,
        [this.#key(id), this.#all],
        [id, `${this.prefix}client:`],
      )) === 1
    );
  }

  async hold(id: string, node: string, idleTimeoutMs: number): Promise<void> {
    await this.redis.sendCommand([
      'SET',
      `${this.prefix}holder:${id}`,
      node,
      'PX',
      String(idleTimeoutMs),
    ]);
  }

  async holder(id: string): Promise<string | undefined> {
    const value = await this.redis.sendCommand<string | null>([
      'GET',
      `${this.prefix}holder:${id}`,
    ]);
    return typeof value === 'string' ? value : undefined;
  }

  get #all(): string {
    return `${this.prefix}sessions`;
  }

  #key(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  #client(client: string): string {
    return `${this.prefix}client:${client}`;
  }
}
