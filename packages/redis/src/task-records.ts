import type { SharedTaskLimits, TaskRecord, TaskRecords } from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

// How long an expired task's id is remembered, so a late poll hears "expired" (one small key
// per task, bounded like the tasks themselves by maxTasks per time-to-live).
const EXPIRED_KEPT_MS = 60 * 60 * 1000;

/**
 * Keeps a task unless a cap is reached. Tasks are counted in sorted sets scored by their expiry
 * (all; the owner's, which `tasks/list` pages; the owner's still working, which the owner's cap
 * counts), so expired ones are dropped before counting.
 * KEYS: record hash, all tasks, the owner's tasks, the expired marker, the owner's working tasks.
 * ARGV: now, ttl ms, maxTasks, maxTasksPerOwner, owner, node, snapshot, terminal (1/0), id,
 *       ms the expired marker outlives the task.
 */
const CREATE = new Script(`
local now, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
if redis.call('ZCARD', KEYS[5]) >= tonumber(ARGV[4]) then return 'maxTasksPerOwner' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'maxTasks' end
redis.call('HSET', KEYS[1], 'o', ARGV[5], 'n', ARGV[6], 's', ARGV[7], 't', ARGV[8])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[9])
redis.call('ZADD', KEYS[3], now + ttl, ARGV[9])
if redis.call('PTTL', KEYS[3]) < ttl then redis.call('PEXPIRE', KEYS[3], ttl) end
if ARGV[8] ~= '1' then
  redis.call('ZADD', KEYS[5], now + ttl, ARGV[9])
  if redis.call('PTTL', KEYS[5]) < ttl then redis.call('PEXPIRE', KEYS[5], ttl) end
end
redis.call('SET', KEYS[4], '1', 'PX', ttl + tonumber(ARGV[10]))
return ''
`);

/**
 * Replaces a live, non-terminal snapshot; a terminal one frees its place in the owner's cap at
 * once. KEYS: record hash. ARGV: snapshot, terminal (1/0), id, working-set key prefix.
 */
const UPDATE = new Script(`
local terminal = redis.call('HGET', KEYS[1], 't')
if not terminal or terminal == '1' then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 't', ARGV[2])
if ARGV[2] == '1' then
  redis.call('ZREM', ARGV[4] .. redis.call('HGET', KEYS[1], 'o'), ARGV[3])
end
return 1
`);

/**
 * A page of an owner's live tasks in the order they expire, after the cursor (its score and id:
 * ties on the score are ordered by id, as Redis orders them).
 * KEYS: the owner's tasks. ARGV: now, cursor score ('' for the first page), cursor id, limit.
 * Returns the ids, then the cursor of the next page when there is one ('' otherwise).
 */
const LIST = new Script(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local min = ARGV[2] == '' and '-inf' or ARGV[2]
local rows = redis.call('ZRANGEBYSCORE', KEYS[1], min, '+inf', 'WITHSCORES')
local limit, ids, next = tonumber(ARGV[4]), {}, ''
for i = 1, #rows, 2 do
  local id, score = rows[i], rows[i + 1]
  if ARGV[2] == '' or score ~= ARGV[2] or id > ARGV[3] then
    if #ids == limit then
      local last = ids[#ids]
      next = redis.call('ZSCORE', KEYS[1], last) .. ':' .. last
      break
    end
    ids[#ids + 1] = id
  end
end
ids[#ids + 1] = next
return ids
`);

/**
 * Tasks on Redis: one hash per task (owner, node, snapshot, terminal flag) expiring with the
 * task, two sorted sets that count tasks in all and per owner for the caps, a marker that
 * outlives each task to tell "expired" from "never existed", and one key per live instance.
 * Writes that must not race (create under the caps, first terminal write wins) are one atomic
 * script each.
 */
export class RedisTaskRecords implements TaskRecords {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
  ) {}

  async create(
    id: string,
    record: TaskRecord,
    expiresAt: number,
    limits: SharedTaskLimits,
  ): Promise<'maxTasks' | 'maxTasksPerOwner' | undefined> {
    const now = Date.now();
    const refused = await CREATE.run<string>(
      this.redis,
      [
        this.#key(id),
        `${this.prefix}tasks`,
        this.#owner(record.owner),
        this.#expired(id),
        `${this.#working}${record.owner}`,
      ],
      [
        String(now),
        String(Math.max(1, expiresAt - now)),
        String(limits.maxTasks),
        String(limits.maxTasksPerOwner),
        record.owner,
        record.node,
        record.snapshot,
        record.terminal ? '1' : '0',
        id,
        String(EXPIRED_KEPT_MS),
      ],
    );
    return refused === 'maxTasks' || refused === 'maxTasksPerOwner' ? refused : undefined;
  }

  async update(id: string, snapshot: string, terminal: boolean): Promise<boolean> {
    return (
      (await UPDATE.run<number>(
        this.redis,
        [this.#key(id)],
        [snapshot, terminal ? '1' : '0', id, this.#working],
      )) === 1
    );
  }

  async get(id: string): Promise<TaskRecord | 'expired' | undefined> {
    const fields = await this.redis.sendCommand<string[] | null>([
      'HMGET',
      this.#key(id),
      'o',
      'n',
      's',
      't',
    ]);
    const [owner, node, snapshot, terminal] = fields ?? [];
    if (typeof owner === 'string' && typeof node === 'string' && typeof snapshot === 'string')
      return { owner, node, snapshot, terminal: terminal === '1' };
    const expired = await this.redis.sendCommand<number>(['EXISTS', this.#expired(id)]);
    return expired === 1 ? 'expired' : undefined;
  }

  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ ids: string[]; next?: string }> {
    // Scores are integer epoch ms; anything else was not made here (a client's own cursor).
    const match = cursor === undefined ? undefined : /^(\d{1,16}):(\S{1,200})$/.exec(cursor);
    if (cursor !== undefined && !match) throw new RangeError(`unknown task list cursor`);
    const rows = await LIST.run<string[]>(
      this.redis,
      [this.#owner(owner)],
      [
        String(Date.now()),
        match?.[1] ?? '',
        match?.[2] ?? '',
        String(Math.max(1, Math.floor(limit))),
      ],
    );
    const next = rows.pop();
    return next ? { ids: rows, next } : { ids: rows };
  }

  async beat(node: string, ttlMs: number): Promise<void> {
    await this.redis.sendCommand(['SET', this.#node(node), '1', 'PX', String(Math.max(1, ttlMs))]);
  }

  async alive(node: string): Promise<boolean> {
    return (await this.redis.sendCommand<number>(['EXISTS', this.#node(node)])) === 1;
  }

  #key(id: string): string {
    return `${this.prefix}task:${id}`;
  }

  get #working(): string {
    return `${this.prefix}tasks-working-of:`;
  }

  #owner(owner: string): string {
    return `${this.prefix}tasks-of:${owner}`;
  }

  #expired(id: string): string {
    return `${this.prefix}task-expired:${id}`;
  }

  #node(node: string): string {
    return `${this.prefix}node:${node}`;
  }
}
