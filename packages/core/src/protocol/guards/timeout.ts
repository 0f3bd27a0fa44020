import { baseSignal, describeCall, type GuardedCall } from './call.js';
import { LimitError } from './limit-error.js';

/**
 * A call's deadline. Its signal aborts with the request's (or the run's) or when time is up. It
 * is built only when the handler reads `ctx.signal`: most handlers never do.
 *
 * Not AbortSignal.any: on Node 20 a signal it returns stays reachable for as long as it has an
 * abort listener and has not aborted, so every handler that adds a listener and never removes
 * it (the usual way) would leak its call's signal — about 4 KB a call in the soak benchmark.
 */
class Deadline {
  #controller?: AbortController;
  #reason?: LimitError;
  #unlink?: () => void;

  constructor(private readonly call: GuardedCall) {}

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
        deadline.dispose();
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        deadline.dispose();
        reject(error);
      },
    );
  });
}

function timedOut(call: GuardedCall, timeoutMs: number): LimitError {
  return new LimitError('timeoutMs', `${describeCall(call)} timed out after ${timeoutMs} ms (timeoutMs) and was stopped.`);
}
