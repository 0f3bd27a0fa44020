import type {
  SessionChange,
  SessionRecord,
  SessionRecordRefusal,
  SessionRecords,
  SharedSessionLimits,
} from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

/**
 * Opens a session unless a cap is reached. Sessions are counted in two sorted sets (all, and per
 * client) scored by their expiry, so expired ones are dropped before counting, and the lowest
 * score is the least recently used. At a cap the least recently used session with no stream open
 * (no busy mark) is ended to make room, as one instance does; only when none is idle (among the
 * 100 least recently used) is the new one refused.
 * KEYS: record, all sessions, the client's sessions (or the record again when there is no client).
 * ARGV: now, idle ms, maxSessions, maxSessionsPerClient, record JSON, id, has client (1/0),
 *       most bytes a record may take, key prefix.
 */
const CREATE = new Script(`
if #ARGV[5] > tonumber(ARGV[8]) then return 'maxSessionRecordBytes' end
local now, idle, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[9]
local function evict(set)
  for _, id in ipairs(redis.call('ZRANGE', set, 0, 99)) do
    if redis.call('EXISTS', prefix .. 'busy:' .. id) == 0 then
      local value = redis.call('GET', prefix .. 'session:' .. id)
      redis.call('DEL', prefix .. 'session:' .. id, prefix .. 'holder:' .. id)
      redis.call('ZREM', KEYS[2], id)
      redis.call('ZREM', set, id)
      if value then
        local client = cjson.decode(value).c
        if client then redis.call('ZREM', prefix .. 'client:' .. client, id) end
      end
      return true
    end
  end
  return false
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if ARGV[7] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) and not evict(KEYS[3]) then
    return 'maxSessionsPerClient'
  end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) and not evict(KEYS[2]) then
  return 'maxSessions'
end
redis.call('SET', KEYS[1], ARGV[5], 'PX', idle)
redis.call('ZADD', KEYS[2], now + idle, ARGV[6])
if ARGV[7] == '1' then
  redis.call('ZADD', KEYS[3], now + idle, ARGV[6])
  redis.call('PEXPIRE', KEYS[3], idle)
end
return ''
`);

/**
 * Reads a record and restarts its idle expiry (in the sets too); with a busy time, marks the
 * session as having a stream open for that long (it is not evicted meanwhile).
 * KEYS: record, all sessions. ARGV: now, idle ms, id, client-set key prefix, busy ms ('' for
 * none), busy key.
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
if ARGV[5] ~= '' then redis.call('SET', ARGV[6], '1', 'PX', ARGV[5]) end
return value
`);

/**
 * Applies state changes to a record, all or none, unless it would outgrow its bound: 0 when the
 * session is gone, -1 when too large, else 1. Subscriptions are an object's keys (a set, and
 * cjson writes an empty one as {}). KEYS: record. ARGV: most bytes, then pairs of change kind
 * (i: initialized, l: level, s: subscribe, u: unsubscribe) and its value.
 */
const UPDATE = new Script(`
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local record = cjson.decode(value)
for i = 2, #ARGV, 2 do
  local kind, arg = ARGV[i], ARGV[i + 1]
  if kind == 'i' then record.d = 1
  elseif kind == 'l' then record.l = arg
  elseif kind == 's' then record.s[arg] = 1
  elseif kind == 'u' then record.s[arg] = nil
  end
end
local encoded = cjson.encode(record)
if #encoded > tonumber(ARGV[1]) then return -1 end
redis.call('SET', KEYS[1], encoded, 'KEEPTTL')
return 1
`);

/** Ends a session. KEYS: record, all sessions, busy mark. ARGV: id, client-set key prefix. */
const REMOVE = new Script(`
local value = redis.call('GET', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
if not value then return 0 end
redis.call('DEL', KEYS[1])
local client = cjson.decode(value).c
if client then redis.call('ZREM', ARGV[2] .. client, ARGV[1]) end
return 1
`);

/** A record as stored: principal, client, the initialize, initialized, level, subscriptions. */
interface Stored {
  p?: string;
  c?: string;
  i: string;
  d?: 1;
  l?: string;
  s: Record<string, 1>;
}

const KIND: Record<SessionChange['kind'], string> = {
  initialized: 'i',
  level: 'l',
  subscribe: 's',
  unsubscribe: 'u',
};

/**
 * Legacy sessions on Redis: one string key per session (its record as JSON) expiring after the
 * idle timeout, two sorted sets that count sessions in all and per client for the caps (and
 * order them by last use, for eviction), and a short-lived busy mark per session whose stream
 * some instance holds open.
 * Every operation is one atomic script, so caps hold however many instances open sessions.
 */
export class RedisSessionRecords implements SessionRecords {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
    /** Most bytes one session's record may take (its initialize, level and subscriptions). */
    private readonly maxRecordBytes = 64 * 1024,
  ) {}

  async create(
    id: string,
    record: SessionRecord,
    limits: SharedSessionLimits,
  ): Promise<SessionRecordRefusal | undefined> {
    const { state } = record;
    const stored: Stored = { i: state.initialize, s: {} };
    if (state.initialized) stored.d = 1;
    if (state.level !== undefined) stored.l = state.level;
    for (const uri of state.subscriptions) stored.s[uri] = 1;
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
        String(this.maxRecordBytes),
        this.prefix,
      ],
    );
    return refused === 'maxSessions' ||
      refused === 'maxSessionsPerClient' ||
      refused === 'maxSessionRecordBytes'
      ? refused
      : undefined;
  }

  async touch(
    id: string,
    idleTimeoutMs: number,
    busyMs?: number,
  ): Promise<SessionRecord | undefined> {
    const value = await TOUCH.run<string | null>(
      this.redis,
      [this.#key(id), this.#all],
      [
        String(Date.now()),
        String(idleTimeoutMs),
        id,
        `${this.prefix}client:`,
        busyMs === undefined ? '' : String(Math.max(1, Math.ceil(busyMs))),
        `${this.prefix}busy:${id}`,
      ],
    );
    if (typeof value !== 'string') return undefined;
    const stored = JSON.parse(value) as Stored;
    return {
      principal: stored.p,
      client: stored.c,
      state: {
        initialize: stored.i,
        initialized: stored.d === 1,
        level: stored.l,
        subscriptions: Object.keys(stored.s ?? {}),
      },
    };
  }

  async update(
    id: string,
    changes: readonly SessionChange[],
  ): Promise<boolean | 'maxSessionRecordBytes'> {
    const args = [String(this.maxRecordBytes)];
    for (const change of changes)
      args.push(
        KIND[change.kind],
        change.kind === 'level' ? change.level : change.kind === 'initialized' ? '' : change.uri,
      );
    const applied = await UPDATE.run<number>(this.redis, [this.#key(id)], args);
    return applied === -1 ? 'maxSessionRecordBytes' : applied === 1;
  }

  async remove(id: string): Promise<boolean> {
    return (
      (await REMOVE.run<number>(
        this.redis,
        [this.#key(id), this.#all, `${this.prefix}busy:${id}`],
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
