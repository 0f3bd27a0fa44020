/**
 * A value now, or a promise of it. The call path stays synchronous while every step is (a sync
 * validator and a handler that returns a plain value): no promise, async frame or microtask per
 * step, which is most of a call's cost and of the garbage that grows V8's young generation.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` is a promise or any other thenable (what `await` would wait for). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** `next(value)` now, or once `value` settles; a synchronous throw stays synchronous. */
export function thenMaybe<T, R>(
  value: MaybePromise<T> | PromiseLike<T>,
  next: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value as T);
}

/** Runs `work`, turning a synchronous throw into a rejection, for callers that need a promise. */
export function promised<T>(work: () => MaybePromise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
