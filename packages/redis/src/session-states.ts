import type { SessionStateBounds, SessionStates } from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

// One session's `ctx.state` is a hash (key → JSON text) beside a counter of its bytes, both
// expiring together when the session is idle. Lua's `#` counts bytes, as the bounds do.
// KEYS: hash, bytes counter.

/** ARGV: key, idle ms. The JSON text or nil; restarts the idle expiry. */
const GET = new Script(`
local value = redis.call('HGET', KEYS[1], ARGV[1])
if redis.call('PEXPIRE', KEYS[1], ARGV[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return value
`);

/** ARGV: key, json, maxKeys, maxBytes, idle ms. 'ok', or the bound that refused it. */
const SET = new Script(`
local before = redis.call('HGET', KEYS[1], ARGV[1])
if not before and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'maxKeys' end
local bytes = tonumber(redis.call('GET', KEYS[2]) or '0')
if before then bytes = bytes - #ARGV[1] - #before end
bytes = bytes + #ARGV[1] + #ARGV[2]
if bytes > tonumber(ARGV[4]) then return 'maxBytes' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[2], bytes, 'PX', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 'ok'
`);

/** ARGV: key, idle ms. 1 when the key was there. */
const DELETE = new Script(`
local before = redis.call('HGET', KEYS[1], ARGV[1])
if not before then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
else
  redis.call('DECRBY', KEYS[2], #ARGV[1] + #before)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
`);

/**
 * Handlers' `ctx.state` on Redis, for every instance: one atomic script per read or write, the
 * bounds (`limits.sessionState`) checked inside it, so two instances writing at once cannot
 * both pass them.
 */
export class RedisSessionStates implements SessionStates {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
  ) {}

  // One hash slot per session (`{…}`), so the scripts also run on Redis Cluster.
  #keys(session: string): string[] {
    return [`${this.prefix}state:{${session}}`, `${this.prefix}state-bytes:{${session}}`];
  }

  async get(session: string, key: string, bounds: SessionStateBounds) {
    const value = await GET.run<string | null>(this.redis, this.#keys(session), [
      key,
      String(bounds.idleTimeoutMs),
    ]);
    return value ?? undefined;
  }

  async set(session: string, key: string, json: string, bounds: SessionStateBounds) {
    const reply = await SET.run<string>(this.redis, this.#keys(session), [
      key,
      json,
      String(bounds.maxKeys),
      String(bounds.maxBytes),
      String(bounds.idleTimeoutMs),
    ]);
    return reply === 'maxKeys' || reply === 'maxBytes' ? reply : undefined;
  }

  async delete(session: string, key: string, bounds: SessionStateBounds) {
    const reply = await DELETE.run<number>(this.redis, this.#keys(session), [
      key,
      String(bounds.idleTimeoutMs),
    ]);
    return Number(reply) === 1;
  }

  async clear(session: string) {
    await this.redis.sendCommand(['DEL', ...this.#keys(session)]);
  }
}
