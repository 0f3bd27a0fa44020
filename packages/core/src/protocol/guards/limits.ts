import type { TaskLimits } from '../tasks/task-limits.js';
import type { RateLimit } from '../../registry/index.js';
import type { ConcurrencyLimits } from './concurrency.js';
import type { Identify } from './identity.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { ControlChars } from './sanitise.js';
import type { StateLimits } from './state-limits.js';
import type { InputRoundLimits } from '../input/input-round-limits.js';
import type { SessionStateLimits } from '../session-state/limits.js';

/**
 * Server-wide guardrails (`createServer({ limits })`). Members override `rateLimit` and
 * `timeoutMs` in their decorators. On by default: `timeoutMs` (5 minutes), `maxResultBytes`
 * (4 MiB), `controlChars` (`escape`), the bounds on client-made state ({@link StateLimits}:
 * listen streams, subscriptions, pending questions to the client) and the `inputRounds` caps;
 * everything else is off until set. They behave the same in every protocol era:
 * under 2026-07-28 a call that spans input rounds (`ctx.elicit`) is rate-counted once, and its
 * timeout runs from the first round to the last (carried in the signed `requestState`).
 *
 * @example
 * ```ts
 * createServer({
 *   name: 'shop',
 *   version: '1.0.0',
 *   providers: [Orders],
 *   limits: {
 *     rateLimit: { max: 60, perMs: 60_000, key: 'identity' }, // each tool, per caller
 *     timeoutMs: 30_000, // tools, resources and prompts
 *     concurrency: { perSession: 4, perServer: 64, maxQueued: 100 },
 *     maxResultBytes: 1024 * 1024,
 *     controlChars: 'strip',
 *   },
 *   audit: true,
 * });
 * ```
 */
export interface ServerLimits extends StateLimits {
  /** The rate limit of every tool that declares none (each tool counts on its own). */
  readonly rateLimit?: RateLimit;
  /** Where rate-limit counters live (default: this process's memory). */
  readonly rateLimitStore?: RateLimitStore;
  /**
   * How long a tool, resource or prompt handler may run, in ms, before its `ctx.signal` aborts
   * and the client is told it timed out (default `DEFAULT_TIMEOUT_MS`, 5 minutes;
   * `Infinity` or 0: no limit). A member's own `timeoutMs` overrides it. Under 2026-07-28 it
   * covers every input round of the call. A synchronous handler cannot be stopped: one that
   * blocks the event loop past its deadline is reported (stderr, audit log) and its call is
   * still answered with the timeout error, not its late result.
   */
  readonly timeoutMs?: number;
  /** Handler calls running at once, per session and per server (default: no cap). */
  readonly concurrency?: ConcurrencyLimits;
  /** Largest result, counting text (UTF-8) and blobs (base64); default 4 MiB, 0 for none. */
  readonly maxResultBytes?: number;
  /** Control characters in tool text: `escape` (default), `strip` or `keep`. */
  readonly controlChars?: ControlChars;
  /** How `ctx.auth` names the caller, for `key: 'identity'` and the audit log. */
  readonly identify?: Identify;
  /** Tasks kept at once, per server and per caller, their questions and longest life. */
  readonly tasks?: TaskLimits;
  /** What `ctx.state` may hold per session (keys, bytes) and how long it outlives use. */
  readonly sessionState?: SessionStateLimits;

  // ── 2026-07-28 input rounds (issue #15, parts 2 and 4) ──────────────────────────────────
  /**
   * Calls waiting in memory for a client's input (per server, per client) and answered rounds
   * remembered; see {@link InputRoundLimits}. The wait itself expires after
   * `inputRounds.roundTimeoutMs` (default 10 minutes).
   */
  readonly inputRounds?: InputRoundLimits;
  // ── end of input rounds ──────────────────────────────────────────────────────────────────
}

export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/**
 * The handler deadline when neither `limits.timeoutMs` nor the member sets one: 5 minutes. The
 * official SDK client gives up on a request after 60 s unless progress resets its clock, so a
 * normal call ends long before; a handler that never settles (a lost promise, a hung socket)
 * then frees its request, session and concurrency slot instead of holding them for ever.
 */
export const DEFAULT_TIMEOUT_MS = 300_000;
