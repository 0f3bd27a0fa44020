import { LimitError } from '../guards/limit-error.js';

/**
 * The record of answered 2026-07-28 input rounds, which makes each round single-use: a client
 * that re-sends a retry it already sent (same `requestState` and answers) is refused instead of
 * running the handler again. Instances behind a load balancer share one record (e.g. Redis
 * `SET key 1 NX PXAT expiresAt`), as they share `requestStateKey`.
 *
 * @example
 * ```ts
 * const usedRounds: UsedRounds = {
 *   markUsed: async (id, expiresAt) => (await redis.set(`mcp-round:${id}`, '1', { NX: true, PXAT: expiresAt })) === 'OK',
 * };
 * createServer({ name: 'x', version: '1', providers: [Tools], inputRounds: { requestStateKey, usedRounds } });
 * ```
 */
export interface UsedRounds {
  /**
   * Records that round `id` was answered: true the first time, false when it already was.
   * After `expiresAt` (ms since the epoch) the round's state is refused as expired anyway, so
   * the record may be dropped.
   */
  markUsed(id: string, expiresAt: number): Promise<boolean> | boolean;
}

/** Rounds remembered by {@link MemoryUsedRounds} unless told otherwise. */
export const DEFAULT_MAX_ANSWERED_ROUNDS = 100_000;

/**
 * The default {@link UsedRounds}: this process's memory, each round kept until its state
 * expires. Bounded: when `max` rounds are remembered and none has expired, a retry is refused
 * (the server cannot tell whether it was answered) rather than a record dropped (which would let
 * that round be answered twice).
 */
export class MemoryUsedRounds implements UsedRounds {
  // Insertion order is close to expiry order (every state lives as long), so the expired ones
  // are dropped from the front as new ones come.
  readonly #used = new Map<string, number>();
  #fullUntil = 0;

  constructor(readonly max = DEFAULT_MAX_ANSWERED_ROUNDS) {}

  markUsed(id: string, expiresAt: number, now = Date.now()): boolean {
    if (this.#used.has(id)) return false;
    for (const [oldest, at] of this.#used) {
      if (at > now) break;
      this.#used.delete(oldest);
    }
    if (this.#used.size >= this.max && !this.#sweep(now)) {
      throw new LimitError(
        'inputRounds',
        `This server remembers ${this.max} answered input rounds (limits.inputRounds.maxAnswered) and none has expired yet; try again shortly.`,
      );
    }
    this.#used.set(id, expiresAt);
    return true;
  }

  get size(): number {
    return this.#used.size;
  }

  /** Drops every expired round; a full record is swept at most once a second. */
  #sweep(now: number): boolean {
    if (now < this.#fullUntil) return false;
    for (const [id, at] of this.#used) if (at <= now) this.#used.delete(id);
    if (this.#used.size < this.max) return true;
    this.#fullUntil = now + 1000;
    return false;
  }
}
