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
 * Answered 2026-07-28 input rounds on Redis: `SET NX` with the round's expiry, so a round is used
 * once across every instance and the record goes when its state would be refused anyway.
 */
export class RedisUsedRounds {
  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
  ) {}

  /** Records that round `id` was answered: true the first time, false when it already was. */
  async markUsed(id: string, expiresAt: number): Promise<boolean> {
    const at = Math.max(expiresAt, Date.now() + 1);
    const reply = await this.redis.sendCommand([
      'SET',
      `${this.prefix}round:${id}`,
      '1',
      'NX',
      'PXAT',
      String(at),
    ]);
    return reply === 'OK';
  }
}
