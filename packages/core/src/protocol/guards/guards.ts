import {
  checkRateLimit,
  checkTimeout,
  StartupError,
  type MaybePromise,
} from '../../registry/index.js';
import type { Logger } from '../logger.js';
import { compose } from '../middleware/compose.js';
import { AuditLog, type AuditOptions, type LimitRefusalEvent } from './audit.js';
import {
  auditStep,
  concurrencyStep,
  type GuardStep,
  outputStep,
  rateLimitStep,
  timeoutStep,
} from './builtin.js';
import { describeCall, type GuardedCall } from './call.js';
import { ConcurrencyLimiter } from './concurrency.js';
import { defaultIdentify, principalOf, type Identify } from './identity.js';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, type ServerLimits } from './limits.js';
import { OutputPolicy } from './output-limit.js';
import { RateLimiter } from './rate-limit.js';
import { StateBudget } from './state-budget.js';
import { storeRefusal } from './limit-error.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import { hasDeadline, SharedDeadline, TimeoutError, type ReportOverrun } from './timeout.js';

/**
 * The guardrails around every tool, resource and prompt handler call: built-in middleware
 * (`builtin.ts`), composed by the same chain as user middleware and run inside it, in a fixed
 * order: the audit log around everything; then the rate limit (tools; a 2026-07-28 call is
 * counted once, not per input round); the output policy; the timeout (covering queueing and
 * every round); the concurrency caps; the handler. Each duty is its own module; what is off has
 * no step. The server-wide deadline is always on (5 minutes by default): a call under it costs
 * two clock reads, and one shared timer serves every pending call.
 */
export class Guards {
  /** The guardrails in their order, outermost first; what is off has no step. */
  readonly #steps: readonly GuardStep[];
  /** Set when the steps are only the no-op rate step, the output policy and the shared deadline. */
  readonly #fused?: { readonly shared: SharedDeadline; readonly output: OutputPolicy };
  /** Where rate limits are counted now: the server's own store, or the shared one once shared. */
  #counting: RateLimitStore;
  readonly #ownRateStore: boolean;
  readonly #audit?: AuditLog;
  /** How `ctx.auth` names the caller (`limits.identify`). */
  readonly identify: Identify;
  /** The server's `logger`: where a transport reports what the operator must fix. */
  readonly logger: Logger;
  /**
   * Where rate-limit counters live (`limits.rateLimitStore`, or the shared store once the server
   * shares its state), also the HTTP endpoint's.
   */
  get rateLimitStore(): RateLimitStore {
    return this.#counting;
  }
  /** The counts and caps of client-made state (listen streams, subscriptions). */
  readonly state: StateBudget;

  /**
   * Counts rate limits in `store`, shared with the other instances of this server (unless
   * `limits.rateLimitStore` names a store of its own).
   */
  shareRateLimits(store: RateLimitStore): void {
    if (this.#ownRateStore) return;
    const shared: RateLimitStore = {
      hit: (key, max, perMs) =>
        Promise.resolve(store.hit(key, max, perMs)).catch((error: unknown) => {
          throw storeRefusal('rateLimit', error);
        }),
    };
    this.#counting = shared;
  }

  constructor(
    options: {
      limits?: ServerLimits;
      audit?: boolean | AuditOptions;
    },
    logger: Logger,
  ) {
    this.logger = logger;
    const limits = options.limits ?? {};
    const identify = limits.identify ?? defaultIdentify;
    this.identify = identify;
    this.state = new StateBudget(limits);
    const defaultRate = checkRateLimit(limits.rateLimit, 'limits') || undefined;
    this.#ownRateStore = limits.rateLimitStore !== undefined;
    this.#counting = limits.rateLimitStore ?? new MemoryRateLimitStore();
    // Through #counting, so that sharing the server's state (shareRateLimits) moves the counters.
    const rate = new RateLimiter(
      { hit: (key, max, perMs) => this.#counting.hit(key, max, perMs) },
      identify,
    );
    const timeoutMs = checkTimeout(limits.timeoutMs, 'limits') ?? DEFAULT_TIMEOUT_MS;
    const overran: ReportOverrun = (call, timeoutMs, blockedMs) => {
      logger.warn(
        `${describeCall(call)} held the event loop past its ${timeoutMs} ms deadline (timeoutMs): it ran ${Math.round(blockedMs)} ms and its deadline could not fire meanwhile. ` +
          'A synchronous handler cannot be stopped, so every other call waited too; its result was discarded and the call answered as timed out. ' +
          'Move such work off the event loop (a worker thread) or let it yield.',
      );
      return new TimeoutError(call, timeoutMs, blockedMs);
    };
    const shared = hasDeadline(timeoutMs) ? new SharedDeadline(timeoutMs, overran) : undefined;
    const output = new OutputPolicy(
      checkBytes(limits.maxResultBytes),
      limits.controlChars ?? 'escape',
    );
    if (options.audit)
      this.#audit = new AuditLog(options.audit === true ? {} : options.audit, identify, logger);
    // The order of the duties: the audit log around everything; the rate limit; the output
    // policy on what comes back in time; the deadline (covering queueing and every round); the
    // concurrency caps; then the handler.
    const steps: GuardStep[] = [];
    if (this.#audit) steps.push(auditStep(this.#audit));
    steps.push(rateLimitStep(rate, defaultRate));
    steps.push(outputStep(output));
    steps.push(timeoutStep(timeoutMs, shared, overran));
    if (limits.concurrency)
      steps.push(concurrencyStep(new ConcurrencyLimiter(checkConcurrency(limits.concurrency))));
    this.#steps = Object.freeze(steps);
    if (shared && !this.#audit && !defaultRate && !limits.concurrency)
      this.#fused = { shared, output };
  }

  /** The principal a legacy HTTP session opened with `auth` is bound to. */
  principal(auth: unknown): string | undefined {
    return principalOf(this.identify, auth);
  }

  /** Records a request refused at a limit on client-made state (when the audit log is on). */
  refused(event: LimitRefusalEvent): void {
    this.#audit?.refusal(event);
  }

  /**
   * Runs `invoke` (the handler call, which builds its Context from `call`) under the guards:
   * the built-in steps, composed as middleware. With only the output policy and the shared
   * deadline on (the defaults), a synchronous call stays synchronous.
   */
  run<T>(call: GuardedCall, invoke: () => MaybePromise<T>): MaybePromise<T> {
    const fused = this.#fused;
    // The defaults (no rate limit, the shared deadline, the output policy), for a member that
    // sets no limit of its own: the same steps, fused, as every tools/call of most servers
    // takes this path.
    if (
      fused &&
      call.limits.rateLimit === undefined &&
      call.limits.timeoutMs === undefined &&
      !call.run?.replay
    )
      return fused.shared.run(call, invoke, fused.output) as MaybePromise<T>;
    return compose(this.#steps, call, invoke) as MaybePromise<T>;
  }
}

function checkBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_RESULT_BYTES;
  if (typeof value === 'number' && value >= 0) return value;
  throw new StartupError(
    'INVALID_LIMIT',
    `limits: maxResultBytes must be a number of bytes ≥ 0 (0: no limit), got ${JSON.stringify(value)}.`,
  );
}

function checkConcurrency(
  limits: ServerLimits['concurrency'] & object,
): ServerLimits['concurrency'] & object {
  for (const field of ['perSession', 'perServer', 'maxQueued'] as const) {
    const value = limits[field];
    const min = field === 'maxQueued' ? 0 : 1;
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new StartupError(
        'INVALID_LIMIT',
        `limits: concurrency.${field} must be an integer ≥ ${min}, got ${JSON.stringify(value)}.`,
      );
    }
  }
  return limits;
}

// A service of the server core, added to `ServerCore` from here: it is built on the era contract,
// which therefore cannot name it without an import cycle.
declare module '../server-core.js' {
  interface ServerCore {
    /** Rate limits, timeouts, concurrency caps, output policy and audit log around handlers. */
    readonly guards: Guards;
  }
}
