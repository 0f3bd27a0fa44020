import { signalOf, type GuardedCall } from './call.js';
import { LimitError } from './limit-error.js';

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/** A counting semaphore with a bounded FIFO queue; a waiter whose signal aborts leaves it. */
export class Gate {
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueued: number,
    private readonly where: string,
  ) {}

  get idle(): boolean {
    return this.#active === 0 && this.#queue.length === 0;
  }

  /** Takes a slot now (undefined), or waits for one; refuses when the queue is full. */
  enter(call: GuardedCall): Promise<void> | undefined {
    if (this.#active < this.max) {
      this.#active++;
      return undefined;
    }
    if (this.#queue.length >= this.maxQueued) {
      throw new LimitError(
        'concurrency',
        `Too many calls at once ${this.where}: ${this.max} running and ${this.#queue.length} waiting (concurrency). Try again when one finishes.`,
      );
    }
    // Only a waiting call needs its signal (building a deadline's costs).
    const signal = signalOf(call);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Frees a slot: the next waiter takes it over, or it becomes free. */
  leave(): void {
    const next = this.#queue.shift();
    if (!next) {
      this.#active--;
      return;
    }
    next.signal.removeEventListener('abort', next.onAbort);
    next.resolve();
  }
}
