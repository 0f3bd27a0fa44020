import {
  checkRateLimit,
  checkTimeout,
  isThenable,
  promised,
  StartupError,
  type MaybePromise,
  type RateLimit,
} from '../../registry/index.js';
import type { Logger } from '../logger.js';
import { AuditLog, type AuditOptions, type LimitRefusalEvent } from './audit.js';
import { describeCall, type GuardedCall } from './call.js';
import { ConcurrencyLimiter } from './concurrency.js';
import { defaultIdentify, principalOf, type Identify } from './identity.js';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, type ServerLimits } from './limits.js';
import { OutputPolicy } from './output-limit.js';
import { RateLimiter } from './rate-limit.js';
import { StateBudget } from './state-budget.js';
import { storeRefusal } from './limit-error.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import {
  hasDeadline,
  SharedDeadline,
  TimeoutError,
  withTimeout,
  type ReportOverrun,
} from './timeout.js';

/**
 * The guardrails around every tool, resource and prompt handler call, in a fixed order: the
 * audit log around everything; then the rate limit (tools; a 2026-07-28 call is counted once,
 * not per input round); the timeout (covering queueing and every round); the concurrency caps;
 * the handler; the output policy. Each is its own module; this only sequences them, and what is
 * off costs a property check. The server-wide deadline is always on (5 minutes by default): a
 * call under it costs two clock reads, and one shared timer serves every pending call.
 */
export class Guards {
  #rate: RateLimiter;
  readonly #ownRateStore: boolean;
  readonly #defaultRate?: RateLimit;
  readonly #timeoutMs: number;
  readonly #shared?: SharedDeadline;
  readonly #overran: ReportOverrun;
  readonly #concurrency?: ConcurrencyLimiter;
  readonly #output: OutputPolicy;
  readonly #audit?: AuditLog;
  /** How `ctx.auth` names the caller (`limits.identify`). */
  readonly identify: Identify;
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
    this.#rate = new RateLimiter(shared, this.identify);
  }

  constructor(
    options: {
      limits?: ServerLimits;
      audit?: boolean | AuditOptions;
      maskInternalErrors?: boolean;
    },
    logger: Logger,
  ) {
    const limits = options.limits ?? {};
    const identify = limits.identify ?? defaultIdentify;
    this.identify = identify;
    this.state = new StateBudget(limits);
    this.#defaultRate = checkRateLimit(limits.rateLimit, 'limits') || undefined;
    this.#rate = new RateLimiter(limits.rateLimitStore ?? new MemoryRateLimitStore(), identify);
    this.#ownRateStore = limits.rateLimitStore !== undefined;
    this.#timeoutMs = checkTimeout(limits.timeoutMs, 'limits') ?? DEFAULT_TIMEOUT_MS;
    this.#overran = (call, timeoutMs, blockedMs) => {
      logger.warn(
        `${describeCall(call)} held the event loop past its ${timeoutMs} ms deadline (timeoutMs): it ran ${Math.round(blockedMs)} ms and its deadline could not fire meanwhile. ` +
          'A synchronous handler cannot be stopped, so every other call waited too; its result was discarded and the call answered as timed out. ' +
          'Move such work off the event loop (a worker thread) or let it yield.',
      );
      return new TimeoutError(call, timeoutMs, blockedMs);
    };
    if (hasDeadline(this.#timeoutMs))
      this.#shared = new SharedDeadline(this.#timeoutMs, this.#overran);
    if (limits.concurrency)
      this.#concurrency = new ConcurrencyLimiter(checkConcurrency(limits.concurrency));
    this.#output = new OutputPolicy(
      checkBytes(limits.maxResultBytes),
      limits.controlChars ?? 'escape',
    );
    if (options.audit)
      this.#audit = new AuditLog(
        options.audit === true ? {} : options.audit,
        identify,
        logger,
        options.maskInternalErrors === true,
      );
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
   * Runs `invoke` (the handler call, which builds its Context from `call`) under the guards.
   * With only the output policy on (the defaults), a synchronous call stays synchronous.
   */
  run<T>(call: GuardedCall, invoke: () => MaybePromise<T>): MaybePromise<T> {
    const { limits } = call;
    const tool = call.kind === 'tool';
    const rate = tool ? (limits.rateLimit ?? this.#defaultRate) : undefined;
    // The server-wide deadline (shared timer) unless the member sets its own, or a replayed
    // 2026-07-28 call's deadline started in an earlier round (a timer of its own).
    const timeoutMs = limits.timeoutMs ?? this.#timeoutMs;
    const shared = limits.timeoutMs === undefined && !call.run?.replay ? this.#shared : undefined;
    const audit = tool ? this.#audit : undefined;
    if (!rate && (shared || !hasDeadline(timeoutMs)) && !this.#concurrency && !audit) {
      // The hot path: no promise of its own for a synchronous call.
      if (shared) return shared.run(call, invoke, this.#output) as MaybePromise<T>;
      const value = invoke();
      return isThenable(value)
        ? value.then((result) => this.#output.apply(call, result) as T)
        : (this.#output.apply(call, value) as T);
    }
    const work = () => promised(invoke);
    if (!audit) return this.#guarded(call, work, rate || undefined, timeoutMs, shared);
    const started = { at: Date.now(), clock: performance.now() };
    return this.#audited(
      audit,
      call,
      started,
      this.#guarded(call, work, rate || undefined, timeoutMs, shared),
    );
  }

  async #audited<T>(
    audit: AuditLog,
    call: GuardedCall,
    started: { at: number; clock: number },
    guarded: Promise<T>,
  ): Promise<T> {
    try {
      const result = await guarded;
      audit.record(call, started, { result });
      return result;
    } catch (error) {
      audit.record(call, started, { error });
      throw error;
    }
  }

  async #guarded<T>(
    call: GuardedCall,
    invoke: () => Promise<T>,
    rate: RateLimit | undefined,
    timeoutMs: number,
    shared: SharedDeadline | undefined,
  ): Promise<T> {
    if (rate && !call.run?.replay) await this.#rate.check(call, rate);
    const concurrency = this.#concurrency;
    const work = concurrency ? () => concurrency.run(call, invoke) : invoke;
    const result = shared
      ? ((await shared.run(call, work, AS_IS)) as T)
      : hasDeadline(timeoutMs)
        ? await withTimeout(call, timeoutMs, work, this.#overran)
        : await work();
    return this.#output.apply(call, result) as T;
  }
}

// The result as it is (the output policy runs after the other guards).
const AS_IS = { apply: (_call: unknown, value: unknown) => value };

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
