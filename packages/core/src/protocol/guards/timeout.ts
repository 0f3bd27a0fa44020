import { baseSignal, describeCall, type GuardedCall } from './call.js';
import { LimitError } from './limit-error.js';

/**
 * A call's deadline. Its signal (the request's, and the deadline's, through AbortSignal.any) is
 * built only when the handler reads `ctx.signal`: most handlers never do, and building it for
 * every call would cost more than everything else the guards do.
 */
class Deadline {
  #controller?: AbortController;
  #signal?: AbortSignal;
  #reason?: LimitError;

  constructor(private readonly call: GuardedCall) {}

  get signal(): AbortSignal {
    if (!this.#signal) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
      this.#signal = AbortSignal.any([baseSignal(this.call), this.#controller.signal]);
    }
    return this.#signal;
  }

  expire(reason: LimitError): void {
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * Runs `work` under a deadline of `timeoutMs` from the call's start (under 2026-07-28, from its
 * first input round, so the deadline covers every round and survives a replay). On expiry the
 * handler's signal aborts and the call fails with a {@link LimitError} naming the limit; the
 * handler's own late outcome is ignored.
 */
export function withTimeout<T>(call: GuardedCall, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const remaining = timeoutMs - (now - (call.run?.startedAt ?? now));
  if (remaining <= 0) return Promise.reject(timedOut(call, timeoutMs));
  const deadline = new Deadline(call);
  call.deadline = deadline;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = timedOut(call, timeoutMs);
      deadline.expire(error);
      reject(error);
    }, remaining);
    work().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function timedOut(call: GuardedCall, timeoutMs: number): LimitError {
  return new LimitError('timeoutMs', `${describeCall(call)} timed out after ${timeoutMs} ms (timeoutMs) and was stopped.`);
}
