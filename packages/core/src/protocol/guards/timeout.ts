import { describeCall, signalOf, type GuardedCall } from './call.js';
import { LimitError } from './limit-error.js';

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
  const controller = new AbortController();
  call.signal = AbortSignal.any([signalOf(call), controller.signal]);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = timedOut(call, timeoutMs);
      controller.abort(error);
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
