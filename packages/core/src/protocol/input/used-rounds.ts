import type { AnsweredRoundCaps, AnsweredRoundRefusal } from '../../stores/index.js';
import { LimitError } from '../guards/limit-error.js';

export type { AnsweredRoundCaps, AnsweredRoundRefusal };

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
   * the record may be dropped. `caps` are the server's `limits.inputRounds` and who answered:
   * a record that keeps to them answers the cap a round would exceed instead of recording it.
   */
  markUsed(
    id: string,
    expiresAt: number,
    caps?: AnsweredRoundCaps,
  ): Promise<boolean | AnsweredRoundRefusal> | boolean | AnsweredRoundRefusal;
}

/** Rounds remembered by {@link MemoryUsedRounds} unless told otherwise. */
export const DEFAULT_MAX_ANSWERED_ROUNDS = 100_000;

/** Rounds remembered for one client unless told otherwise (`limits.inputRounds.maxAnsweredPerClient`). */
export const DEFAULT_MAX_ANSWERED_PER_CLIENT = 1_000;

/**
 * The default {@link UsedRounds}: this process's memory, each round kept until its state
 * expires. Bounded: when `max` rounds are remembered and none has expired, a retry is refused
 * (the server cannot tell whether it was answered) rather than a record dropped (which would let
 * that round be answered twice); and so is a client's retry when it has `caps.maxAnsweredPerClient`.
 */
export class MemoryUsedRounds implements UsedRounds {
  // Insertion order is close to expiry order (every state lives as long), so the expired ones
  // are dropped from the front as new ones come.
  readonly #used = new Map<string, { readonly at: number; readonly client?: string }>();
  readonly #perClient = new Map<string, number>();
  #fullUntil = 0;

  constructor(readonly max = DEFAULT_MAX_ANSWERED_ROUNDS) {}

  markUsed(
    id: string,
    expiresAt: number,
    caps?: AnsweredRoundCaps,
    now = Date.now(),
  ): boolean | AnsweredRoundRefusal {
    if (this.#used.has(id)) return false;
    for (const [oldest, { at }] of this.#used) {
      if (at > now) break;
      this.#drop(oldest);
    }
    const client = caps?.client;
    if (client !== undefined && (this.#perClient.get(client) ?? 0) >= caps!.maxAnsweredPerClient)
      return { limit: 'maxAnsweredPerClient', retryAfterMs: this.#untilFirstOf(client, now) };
    if (this.#used.size >= this.max && !this.#sweep(now)) {
      throw new LimitError(
        'inputRounds',
        `This server remembers ${this.max} answered input rounds (limits.inputRounds.maxAnswered) and none has expired yet; try again shortly.`,
      );
    }
    this.#used.set(id, { at: expiresAt, client });
    if (client !== undefined) this.#perClient.set(client, (this.#perClient.get(client) ?? 0) + 1);
    return true;
  }

  get size(): number {
    return this.#used.size;
  }

  #drop(id: string): void {
    const client = this.#used.get(id)?.client;
    this.#used.delete(id);
    if (client === undefined) return;
    const left = (this.#perClient.get(client) ?? 1) - 1;
    if (left > 0) this.#perClient.set(client, left);
    else this.#perClient.delete(client);
  }

  /** How long until the client's oldest round expires (only looked for when refusing it). */
  #untilFirstOf(client: string, now: number): number {
    for (const { at, client: owner } of this.#used.values())
      if (owner === client) return Math.max(1, at - now);
    return 1;
  }

  /** Drops every expired round; a full record is swept at most once a second. */
  #sweep(now: number): boolean {
    if (now < this.#fullUntil) return false;
    for (const [id, { at }] of this.#used) if (at <= now) this.#drop(id);
    if (this.#used.size < this.max) return true;
    this.#fullUntil = now + 1000;
    return false;
  }
}
