/**
 * A request's answer that comes later, settled by a callback rather than a promise: what a
 * handler may return instead of a `Promise` where it is told its answer by a callback itself (a
 * forwarding proxy's pass-through). The engine writes the answer in the turn it is settled, with
 * no promise reaction between the two. Settling a second time does nothing.
 *
 * @example
 * ```ts
 * const answer = new DeferredAnswer();
 * upstream.send(frame, (error, result) => (error ? answer.reject(error) : answer.resolve(result)));
 * return answer;
 * ```
 */
export class DeferredAnswer {
  #listener?: (ok: boolean, value: unknown) => void;
  #settled = false;
  #ok = false;
  #value: unknown;

  /** Answers with `value` (a result, or a `RawJson` result already encoded). */
  resolve(value: unknown): void {
    this.#settle(true, value);
  }

  /** Answers with what `error` maps to, as a handler's throw is. */
  reject(error: unknown): void {
    this.#settle(false, error);
  }

  /** Whether it is settled. */
  get settled(): boolean {
    return this.#settled;
  }

  /**
   * Calls `listener` once with the outcome, when it is settled (at once if it was). One
   * listener: the engine's, or whoever chains it.
   */
  listen(listener: (ok: boolean, value: unknown) => void): void {
    if (this.#settled) listener(this.#ok, this.#value);
    else this.#listener = listener;
  }

  #settle(ok: boolean, value: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#ok = ok;
    this.#value = value;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.(ok, value);
  }
}
