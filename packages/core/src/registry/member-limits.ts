import type { RateLimit } from '../decorators/index.js';
import { StartupError } from './errors.js';

/** The limits a member declared, checked at startup (the server's defaults fill the gaps). */
export interface MemberLimits {
  readonly timeoutMs?: number;
  readonly rateLimit?: RateLimit | false;
}

const NONE: MemberLimits = Object.freeze({});
const KEYS = new Set(['session', 'identity', 'address', 'global']);

/** Reads `timeoutMs` and `rateLimit` from decorator options; a bad value fails at startup. */
export function memberLimits(
  options: { timeoutMs?: unknown; rateLimit?: unknown },
  origin: string,
): MemberLimits {
  const { timeoutMs, rateLimit } = options;
  if (timeoutMs === undefined && rateLimit === undefined) return NONE;
  return Object.freeze({
    timeoutMs: checkTimeout(timeoutMs, origin),
    rateLimit: checkRateLimit(rateLimit, origin),
  });
}

// The longest delay a Node.js timer takes (about 24.8 days); a longer one fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `timeoutMs`: milliseconds from 0 to 2³¹−1, or `Infinity` (0 and `Infinity`: no timeout). */
export function checkTimeout(value: unknown, where: string): number | undefined {
  if (value === undefined || value === Number.POSITIVE_INFINITY) return value;
  if (typeof value === 'number' && value >= 0 && value <= MAX_TIMER_MS) return value;
  throw new StartupError(
    'INVALID_LIMIT',
    `${where}: timeoutMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, or Infinity for no timeout; got ${String(value)}.`,
  );
}

/** `rateLimit`: `false`, or `{ max, perMs, key? }` with a positive integer `max` and `perMs` > 0. */
export function checkRateLimit(value: unknown, where: string): RateLimit | false | undefined {
  if (value === undefined || value === false) return value;
  const limit = value as Partial<RateLimit> | null;
  const ok =
    typeof limit === 'object' &&
    limit !== null &&
    Number.isInteger(limit.max) &&
    (limit.max as number) > 0 &&
    typeof limit.perMs === 'number' &&
    Number.isFinite(limit.perMs) &&
    limit.perMs > 0 &&
    (limit.key === undefined || KEYS.has(limit.key));
  if (!ok) {
    throw new StartupError(
      'INVALID_LIMIT',
      `${where}: rateLimit must be { max: <integer ≥ 1>, perMs: <ms > 0>, key?: 'session' | 'identity' | 'address' | 'global' }, got ${JSON.stringify(value)}.`,
    );
  }
  return Object.freeze({ max: limit.max!, perMs: limit.perMs!, key: limit.key ?? 'session' });
}
