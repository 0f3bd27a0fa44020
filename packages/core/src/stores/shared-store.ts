import type { EventStore } from './event-store.js';
import type { MessageBus } from './message-bus.js';
import type { SessionRecords } from './session-records.js';
import type { SessionStates } from './session-state.js';
import type { TaskRecords } from './task-records.js';

/**
 * Everything instances of one server share so that any of them serves any request, in both
 * eras: legacy sessions, their event logs, a message bus, tasks, the record of used 2026-07-28
 * input rounds, rate-limit counters, and the key that signs `requestState`. `@mcp-fw/redis` builds one
 * (`await redisStore(url)`); pass it once, as the `store` option of `serveHttp` /
 * `createHttpHandler` (or `--redis <url>` / `REDIS_URL` with `serveFromArgs`).
 *
 * A store that cannot be reached makes the requests that need it fail with 503 and
 * `Retry-After` (`StoreUnavailableError`); 2026-07-28 requests that need nothing shared are
 * served as usual.
 *
 * @example
 * ```ts
 * import { redisStore } from '@mcp-fw/redis';
 * await serveHttp(server, { port: 3000, host: '0.0.0.0', store: await redisStore(process.env.REDIS_URL!) });
 * ```
 */
export interface SharedStore {
  /** Names this instance in bus messages, so it can ignore its own. */
  readonly nodeId: string;
  readonly sessions: SessionRecords;
  readonly events: EventStore;
  readonly bus: MessageBus;
  /** Single use of 2026-07-28 input rounds (same contract as `inputRounds.usedRounds`). */
  readonly usedRounds: {
    /**
     * Records that round `id` was answered: true the first time, false when it already was, or
     * the cap of `caps` that keeps it from being recorded (then nothing is recorded).
     */
    markUsed(
      id: string,
      expiresAt: number,
      caps?: AnsweredRoundCaps,
    ): Promise<boolean | AnsweredRoundRefusal>;
  };
  /** Rate-limit counters (same contract as `limits.rateLimitStore`). */
  readonly rateLimits: {
    /** Counts one call under `key`: 0 when allowed, else the ms until the next allowed call. */
    hit(key: string, max: number, perMs: number): Promise<number>;
  };
  /** Tasks, so any instance answers for any (see {@link TaskRecords}). */
  readonly tasks: TaskRecords;
  /**
   * Handlers' `ctx.state`, so any instance reads what another wrote (see {@link SessionStates}).
   * A store without it leaves `ctx.state` in each instance's memory.
   */
  readonly sessionState?: SessionStates;
  /**
   * The key that signs `requestState`, the same on every instance (≥ 32 bytes). Read at each
   * use, so a store may replace it (a getter) when it finds the instances disagree.
   */
  readonly requestStateKey: string;
  /** Releases the store's connections. */
  close(): Promise<void>;
}

/**
 * The caps a record of answered input rounds keeps to (`limits.inputRounds`): every record is
 * state a client made, kept until its round's state expires, so each client's and all clients'
 * are bounded in number.
 *
 * @example
 * ```ts
 * const caps: AnsweredRoundCaps = { client: 'identity:alice', maxAnswered: 100_000, maxAnsweredPerClient: 1_000 };
 * ```
 */
export interface AnsweredRoundCaps {
  /** Who answered: the caller's identity, else its network address, else its session. */
  readonly client: string;
  /** Rounds remembered for all clients together (`limits.inputRounds.maxAnswered`). */
  readonly maxAnswered: number;
  /** Rounds remembered for one client (`limits.inputRounds.maxAnsweredPerClient`). */
  readonly maxAnsweredPerClient: number;
}

/**
 * A round a record of answered rounds would not keep: the cap it reached, and how long until
 * one of the rounds it counts expires (the refusal's `Retry-After`).
 *
 * @example
 * ```ts
 * const refusal: AnsweredRoundRefusal = { limit: 'maxAnsweredPerClient', retryAfterMs: 42_000 };
 * ```
 */
export interface AnsweredRoundRefusal {
  readonly limit: 'maxAnswered' | 'maxAnsweredPerClient';
  readonly retryAfterMs: number;
}

/**
 * Thrown by a shared store that cannot be reached: the request that needed it is answered 503
 * with `Retry-After` (HTTP) rather than failing as an internal error.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterS = 1,
  ) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
