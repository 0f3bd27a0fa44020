import { createHash } from 'node:crypto';
import type { AnsweredRoundCaps, AnsweredRoundRefusal } from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

/**
 * One call counted in a fixed window: 0 when within `max`, else the ms until the window ends
 * (the refused call is not counted). KEYS: counter. ARGV: max, window ms.
 */
const HIT = new Script(`
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if count <= tonumber(ARGV[1]) then return 0 end
redis.call('DECR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return ttl
`);

/**
 * Rate-limit counters on Redis: fixed windows, one atomic script per call, each counter expiring
 * with its window. Serves `limits.rateLimitStore`, which the HTTP `rateLimit` counts in too.
 */
export class RedisRateLimitStore {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
  ) {}

  /** Counts one call under `key`: 0 when allowed, else the ms until the window ends. */
  async hit(key: string, max: number, perMs: number): Promise<number> {
    return Number(
      await HIT.run<number>(
        this.redis,
        [`${this.prefix}rate:${key}`],
        [String(max), String(perMs)],
      ),
    );
  }
}

/**
 * Records an answered round unless a cap is reached. Rounds are counted in sorted sets scored by
 * their expiry (all; the client's), so expired ones are dropped before counting, and each set
 * lives as long as its newest round. Answers 1 (recorded), 0 (already answered), or the cap
 * reached and the ms until the oldest round it counts expires.
 * KEYS: the round, all rounds, the client's rounds. ARGV: now, expires at, maxAnswered,
 * maxAnsweredPerClient, round id.
 */
const MARK = new Script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now, at = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local function full(key, limit)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {limit, tostring(math.max(1, tonumber(oldest[2]) - now))}
end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return full(KEYS[3], 'maxAnsweredPerClient') end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return full(KEYS[2], 'maxAnswered') end
redis.call('SET', KEYS[1], '1', 'PXAT', ARGV[2])
for i = 2, 3 do
  redis.call('ZADD', KEYS[i], at, ARGV[5])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 or now + ttl < at then redis.call('PEXPIREAT', KEYS[i], ARGV[2]) end
end
return 1
`);

/**
 * Answered 2026-07-28 input rounds on Redis: recorded once with the round's expiry, so a round is
 * used once across every instance and the record goes when its state would be refused anyway.
 * Bounded like every piece of client-made state: given the server's caps, a round is not
 * recorded past `limits.inputRounds.maxAnsweredPerClient` for its client or `maxAnswered` for
 * all (the retry is refused instead, until one expires).
 */
export class RedisUsedRounds {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
  ) {}

  /**
   * Records that round `id` was answered: true the first time, false when it already was, or
   * the cap of `caps` it would exceed.
   */
  async markUsed(
    id: string,
    expiresAt: number,
    caps?: AnsweredRoundCaps,
  ): Promise<boolean | AnsweredRoundRefusal> {
    const now = Date.now();
    const at = Math.max(expiresAt, now + 1);
    const key = `${this.prefix}round:${id}`;
    if (!caps) {
      const reply = await this.redis.sendCommand(['SET', key, '1', 'NX', 'PXAT', String(at)]);
      return reply === 'OK';
    }
    // The client is the caller's identity or address: hashed, so a long one makes a short key.
    const client = createHash('sha256').update(caps.client).digest('base64url');
    const reply = await MARK.run<number | [string, string]>(
      this.redis,
      [key, `${this.prefix}rounds`, `${this.prefix}rounds:${client}`],
      [String(now), String(at), String(caps.maxAnswered), String(caps.maxAnsweredPerClient), id],
    );
    if (Array.isArray(reply)) {
      const limit = reply[0] === 'maxAnswered' ? 'maxAnswered' : 'maxAnsweredPerClient';
      return { limit, retryAfterMs: Number(reply[1]) };
    }
    return Number(reply) === 1;
  }
}
