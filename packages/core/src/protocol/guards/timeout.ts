import { isThenable } from '../../registry/index.js';
import { baseSignal, describeCall, type GuardedCall } from './call.js';
import { cpuMark, heldCpu } from './cpu-clock.js';
import { LimitError } from './limit-error.js';

/**
 * A call's deadline. Its signal aborts with the request's (or the run's) or when time is up. It
 * is built only when the handler reads `ctx.signal`: most handlers never do.
 *
 * Not AbortSignal.any: on Node 20 a signal it returns stays reachable for as long as it has an
 * abort listener and has not aborted, so every handler that adds a listener and never removes
 * it (the usual way) would leak its call's signal, a few KB per call.
 */
class Deadline {
  #controller?: AbortController;
  #reason?: LimitError;
  #unlink?: () => void;

  constructor(readonly call: GuardedCall) {}

  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      const base = baseSignal(this.call);
      if (this.#reason) controller.abort(this.#reason);
      else if (base.aborted) controller.abort(base.reason);
      else {
        const forward = () => controller.abort(base.reason);
        base.addEventListener('abort', forward, { once: true });
        this.#unlink = () => base.removeEventListener('abort', forward);
      }
    }
    return this.#controller.signal;
  }

  expire(reason: LimitError): void {
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** The call settled: stop following the request's signal. */
  dispose(): void {
    this.#unlink?.();
    this.#unlink = undefined;
  }
}

/**
 * A call stopped by its deadline (`timeoutMs`). `blockedMs` is set when the call held the event
 * loop past its deadline (how long it ran, the deadline unable to fire): a synchronous handler
 * cannot be pre-empted, so its late result is discarded instead. Not set when the process was
 * waiting for a CPU rather than running the handler (cpu-clock.ts): the call still timed out.
 */
export class TimeoutError extends LimitError {
  constructor(
    call: GuardedCall,
    readonly timeoutMs: number,
    readonly blockedMs?: number,
  ) {
    super(
      'timeoutMs',
      `${describeCall(call)} timed out after ${timeoutMs} ms (timeoutMs) and was stopped.`,
    );
  }
}

/** Reports a handler that blocked the event loop past its deadline; returns the call's error. */
export type ReportOverrun = (
  call: GuardedCall,
  timeoutMs: number,
  blockedMs: number,
) => TimeoutError;

// An outcome this late past its deadline, with the deadline not yet fired, means the event loop
// was held (a timer runs a little late anyway, under load). The clock is Date.now(): read twice
// per call, and the global `performance` is an accessor that costs as much again as a read.
const HELD_MS = 10;

/** A deadline in ms is one when positive and finite (0 and Infinity: none). */
export function hasDeadline(timeoutMs: number): boolean {
  return timeoutMs > 0 && timeoutMs !== Number.POSITIVE_INFINITY;
}

/**
 * Runs `work` under a deadline of `timeoutMs` from the call's start (under 2026-07-28, from its
 * first input round, so the deadline covers every round and survives a replay), with a timer of
 * its own. On expiry the handler's signal aborts and the call fails with a {@link TimeoutError};
 * the handler's own late outcome is ignored — also when the timer could not fire because the
 * event loop was blocked (by this handler's synchronous work, or another's).
 */
export function withTimeout<T>(
  call: GuardedCall,
  timeoutMs: number,
  work: () => Promise<T>,
  overran: ReportOverrun,
): Promise<T> {
  const now = Date.now();
  const remaining = timeoutMs - (now - (call.run?.startedAt ?? now));
  if (remaining <= 0) return Promise.reject(new TimeoutError(call, timeoutMs));
  const deadline = new Deadline(call);
  call.deadline = deadline;
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      const error = new TimeoutError(call, timeoutMs);
      deadline.expire(error);
      reject(error);
    }, remaining);
    const started = Date.now();
    const cpu = cpuMark(started, remaining);
    const at = started + remaining;
    const pending = work();
    const after = Date.now();
    if (after >= at) {
      // The deadline passed inside the handler's synchronous part: the timer never had a chance.
      // The handler held the event loop, unless the process was waiting for a CPU meanwhile.
      clearTimeout(timer);
      pending.catch(ignore);
      const error = heldCpu(cpu, remaining)
        ? overran(call, timeoutMs, after - started)
        : new TimeoutError(call, timeoutMs);
      deadline.expire(error);
      reject(error);
      return;
    }
    const settle = (outcome: () => void) => {
      if (expired) return;
      clearTimeout(timer);
      deadline.dispose();
      const now = Date.now();
      // Past the deadline, and its timer has not run: answer the timeout, not the late outcome.
      if (now >= at)
        reject(
          now - at > HELD_MS && heldCpu(cpu, remaining)
            ? overran(call, timeoutMs, now - started)
            : new TimeoutError(call, timeoutMs),
        );
      else outcome();
    };
    pending.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** One pending call under the shared deadline: its {@link Deadline}, and where its outcome goes. */
class Tracked extends Deadline {
  /** When it expires (ms since the epoch). */
  at = 0;
  /** The process's CPU time when it started ({@link cpuMark}). */
  cpu = Number.NaN;
  resolve?: (value: unknown) => void;
  reject?: (error: unknown) => void;
  // Its neighbours in the queue of pending calls (a linked list: no hashing, no allocation).
  prev?: Tracked;
  next?: Tracked;
  queued = false;
}

/** The pending calls, oldest (first to expire) first. */
class Queue {
  head?: Tracked;
  tail?: Tracked;

  push(entry: Tracked): void {
    entry.queued = true;
    entry.prev = this.tail;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
  }

  /** Takes `entry` out; false if it was not queued (it expired already). */
  remove(entry: Tracked): boolean {
    if (!entry.queued) return false;
    entry.queued = false;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = undefined;
    return true;
  }
}

/** What happens to a call's result once it is in time (the output policy). */
export interface ResultStep {
  apply(call: GuardedCall, value: unknown): unknown;
}

/**
 * The server-wide deadline (`limits.timeoutMs`, default 5 minutes) of every call that sets none
 * of its own, with one timer for all of them: every call's deadline is the same length from its
 * start, so calls enter in deadline order and the next to expire is always the oldest. A
 * synchronous call costs two clock reads and nothing else; a call that returns a promise is
 * queued until it settles, with one promise of its own (which also applies `step`).
 * (A replayed 2026-07-28 call, whose deadline started in an earlier round, uses
 * {@link withTimeout}.)
 */
export class SharedDeadline {
  readonly #pending = new Queue();
  #timer?: ReturnType<typeof setTimeout>;
  // While a handler runs synchronously, `ctx.signal` reaches its deadline through #lazy, which
  // builds it on first use: most calls never read the signal, and most return a plain value.
  #current?: GuardedCall;
  #made?: Tracked;
  readonly #lazy: { readonly signal: AbortSignal };

  constructor(
    readonly timeoutMs: number,
    private readonly overran: ReportOverrun,
  ) {
    const self = this;
    this.#lazy = {
      get signal() {
        return self.#make().signal;
      },
    };
  }

  /**
   * Runs `invoke` under the deadline and hands a result in time to `step`. A synchronous
   * outcome is answered at once, unless the handler held the event loop past the deadline; a
   * promise is raced against the deadline.
   */
  run(call: GuardedCall, invoke: () => unknown, step: ResultStep): unknown {
    const outerCall = this.#current;
    const outerMade = this.#made;
    this.#current = call;
    this.#made = undefined;
    call.deadline = this.#lazy;
    const started = Date.now();
    const cpu = cpuMark(started, this.timeoutMs);
    // Under 2026-07-28 the call's start is carried to later rounds (and replays): fix it now.
    call.run?.startAt(started);
    let value: unknown;
    let made: Tracked | undefined;
    try {
      value = invoke();
    } catch (error) {
      made = this.#made;
      this.#checkBlocked(call, made, started, cpu);
      throw error;
    } finally {
      made ??= this.#made;
      // The handler's synchronous part is over: #lazy no longer knows the call.
      call.deadline = made;
      this.#current = outerCall;
      this.#made = outerMade;
    }
    this.#checkBlocked(call, made, started, cpu, value);
    if (!isThenable(value)) {
      made?.dispose();
      return step.apply(call, value);
    }
    const tracked = made ?? new Tracked(call);
    call.deadline = tracked;
    tracked.at = started + this.timeoutMs;
    tracked.cpu = cpu;
    capturing = tracked;
    const outcome = new Promise(capture);
    this.#pending.push(tracked);
    this.#timer ??= this.#arm(tracked.at);
    value.then(
      (result) => {
        if (!this.#settled(tracked)) return;
        try {
          tracked.resolve!(step.apply(call, result));
        } catch (error) {
          tracked.reject!(error);
        }
      },
      (error: unknown) => {
        if (this.#settled(tracked)) tracked.reject!(error);
      },
    );
    return outcome;
  }

  /** The deadline of the call running now, built when its handler first reads `ctx.signal`. */
  #make(): Tracked {
    return (this.#made ??= new Tracked(this.#current!));
  }

  /**
   * Throws the timeout if the synchronous part of the call outlasted the deadline, reported as
   * the handler holding the event loop unless the process was waiting for a CPU meanwhile.
   */
  #checkBlocked(
    call: GuardedCall,
    made: Tracked | undefined,
    started: number,
    cpu: number,
    value?: unknown,
  ): void {
    const blockedMs = Date.now() - started;
    if (blockedMs < this.timeoutMs) return;
    if (isThenable(value)) Promise.resolve(value).catch(ignore);
    const error = heldCpu(cpu, this.timeoutMs)
      ? this.overran(call, this.timeoutMs, blockedMs)
      : new TimeoutError(call, this.timeoutMs);
    made?.expire(error);
    throw error;
  }

  /** The call's own outcome arrived: true if it may be answered (the deadline has not passed). */
  #settled(tracked: Tracked): boolean {
    if (!this.#pending.remove(tracked)) return false; // expired already: answered with the timeout
    tracked.dispose();
    const now = Date.now();
    if (now < tracked.at) return true;
    // Past the deadline, and the timer has not run: answer the timeout, not the late outcome.
    const { call } = tracked;
    const started = tracked.at - this.timeoutMs;
    tracked.reject!(
      now - tracked.at > HELD_MS && heldCpu(tracked.cpu, this.timeoutMs)
        ? this.overran(call, this.timeoutMs, now - started)
        : new TimeoutError(call, this.timeoutMs),
    );
    return false;
  }

  #arm(at: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
    // A call waiting on its deadline is no reason to keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #expire(): void {
    this.#timer = undefined;
    const now = Date.now();
    for (let tracked = this.#pending.head; tracked; tracked = this.#pending.head) {
      if (tracked.at > now) {
        this.#timer = this.#arm(tracked.at);
        return;
      }
      this.#pending.remove(tracked);
      const error = new TimeoutError(tracked.call, this.timeoutMs);
      tracked.expire(error);
      tracked.reject!(error);
    }
  }
}

// The executor of every queued call's promise: a module-level function with the call in a
// variable, so queueing a call makes no closure for it.
let capturing: Tracked | undefined;
function capture(resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
  capturing!.resolve = resolve;
  capturing!.reject = reject;
  capturing = undefined;
}

function ignore(): void {}
