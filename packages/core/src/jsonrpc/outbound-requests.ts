import { JsonRpcError } from './error.js';
import type { JsonRpcId } from './messages.js';

// Not a JSON-RPC 2.0 code: -32001 is what the MCP SDKs use for a request that timed out.
export const REQUEST_TIMEOUT_CODE = -32001;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** When it times out, on `performance.now()`'s clock; `Infinity`: never. */
  deadline: number;
  timeoutMs: number;
}

/** A `Timeout` on Node and Bun, which can stop holding the process; a number elsewhere. */
interface Refable {
  ref(): unknown;
  unref(): unknown;
}

const refable = (timer: unknown): timer is Refable =>
  typeof (timer as Partial<Refable> | undefined)?.unref === 'function';

/**
 * Requests this side sent and is waiting on, keyed by id, each with its own timeout.
 *
 * The timeouts share one timer, armed for the earliest deadline and left armed when a request
 * is answered: a `setTimeout` and `clearTimeout` per request cost more than the rest of a
 * request's bookkeeping when calls go one at a time (Node builds and drops a timer list for the
 * delay each time the last timer of that delay goes). When it fires, it rejects what is due and
 * re-arms for the next deadline. While nothing is pending it is unref'd (cleared, on runtimes
 * whose timers cannot be), so it never keeps a process alive; while something is, it holds the
 * process as a timer per request did.
 */
export class OutboundRequests {
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #onTimeout: (id: JsonRpcId) => void;
  #nextId: number;
  #timer?: ReturnType<typeof setTimeout>;
  /** The deadline the timer is armed for (`Infinity`: not armed). */
  #armedFor = Number.POSITIVE_INFINITY;
  #timerHeld = false;
  /** Pending requests with a finite timeout: what the timer waits for. */
  #timed = 0;

  /**
   * `firstId`: where this side's ids start (see `Channel.firstOutboundId`); `onTimeout`: told
   * each request given up on its timeout, after its promise was rejected.
   */
  constructor(firstId = 0, onTimeout: (id: JsonRpcId) => void = () => {}) {
    this.#nextId = firstId;
    this.#onTimeout = onTimeout;
  }

  /** Opens a request; a `timeoutMs` of `Infinity` waits for the answer however long it takes. */
  open(timeoutMs: number): { id: JsonRpcId; done: Promise<unknown> } {
    const id = this.#nextId++;
    const finite = Number.isFinite(timeoutMs);
    const deadline = finite ? now() + timeoutMs : Number.POSITIVE_INFINITY;
    const done = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, deadline, timeoutMs });
    });
    if (finite) {
      this.#timed++;
      if (deadline < this.#armedFor) this.#arm(deadline);
      else if (!this.#timerHeld) this.#hold(true);
    }
    return { id, done };
  }

  /** Settles a pending request from a response; false when nothing waits on that id. */
  settle(
    id: JsonRpcId,
    error: { code: number; message: string; data?: unknown } | undefined,
    result: unknown,
  ): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#forget(id, pending);
    if (error) pending.reject(new JsonRpcError(error.code, error.message, error.data));
    else pending.resolve(result);
    return true;
  }

  abandon(id: JsonRpcId, reason: unknown): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#forget(id, pending);
    pending.reject(reason);
    return true;
  }

  rejectAll(reason: unknown): void {
    for (const id of [...this.#pending.keys()]) this.abandon(id, reason);
  }

  get size(): number {
    return this.#pending.size;
  }

  #forget(id: JsonRpcId, pending: Pending): void {
    this.#pending.delete(id);
    if (
      pending.deadline !== Number.POSITIVE_INFINITY &&
      --this.#timed === 0 &&
      this.#timer !== undefined
    ) {
      if (refable(this.#timer)) this.#hold(false);
      else this.#disarm();
    }
  }

  /** Arms the one timer for `deadline` (earlier than what it was armed for). */
  #arm(deadline: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = deadline;
    // setTimeout clamps delays past 2^31-1 ms to 1 ms: a longer wait is re-armed on the way.
    const delay = Math.min(Math.max(Math.ceil(deadline - now()), 1), MAX_DELAY_MS);
    this.#timer = setTimeout(() => this.#expire(), delay);
    this.#timerHeld = true;
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    this.#timerHeld = false;
  }

  /** Refs the timer while a request waits on it, unrefs it while nothing does. */
  #hold(held: boolean): void {
    this.#timerHeld = held;
    const timer = this.#timer;
    if (!refable(timer)) return;
    if (held) timer.ref();
    else timer.unref();
  }

  #expire(): void {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    this.#timerHeld = false;
    const time = now();
    let next = Number.POSITIVE_INFINITY;
    const due: [JsonRpcId, Pending][] = [];
    for (const entry of this.#pending) {
      const deadline = entry[1].deadline;
      if (deadline <= time) due.push(entry);
      else if (deadline < next) next = deadline;
    }
    for (const [id, pending] of due) {
      // A request an earlier rejection's handler settled or gave up meanwhile is not due.
      if (this.#pending.get(id) !== pending) continue;
      this.#pending.delete(id);
      this.#timed--;
      pending.reject(
        new JsonRpcError(REQUEST_TIMEOUT_CODE, `Request timed out after ${pending.timeoutMs} ms`),
      );
      this.#onTimeout(id);
    }
    // Requests opened by the handlers above armed the timer themselves if they are due sooner.
    if (next < this.#armedFor && this.#timed > 0) this.#arm(next);
  }
}

/** Node's timers clamp longer delays to 1 ms. */
const MAX_DELAY_MS = 2 ** 31 - 1;

function now(): number {
  return performance.now();
}
