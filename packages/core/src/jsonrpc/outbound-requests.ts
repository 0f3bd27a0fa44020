import { JsonRpcError } from './error.js';
import type { JsonRpcId } from './messages.js';
import { PendingById } from './pending-by-id.js';

// Not a JSON-RPC 2.0 code: -32001 is what the MCP SDKs use for a request that timed out.
export const REQUEST_TIMEOUT_CODE = -32001;

interface Pending {
  readonly id: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  readonly method: string;
  readonly params: unknown;
  /** When it times out, on `performance.now()`'s clock; `Infinity`: never. */
  deadline: number;
  timeoutMs: number;
}

/** A `Timeout` on Node and Bun, which can stop holding the process; a number elsewhere. */
interface Refable {
  ref(): unknown;
  unref(): unknown;
  /** Starts the same delay over from now, reusing the timer (Node, Bun). */
  refresh?(): unknown;
}

const refable = (timer: unknown): timer is Refable =>
  typeof (timer as Partial<Refable> | undefined)?.unref === 'function';

/**
 * Requests this side sent and is waiting on, keyed by id, each with its own timeout.
 *
 * The timeouts share one timer: a `setTimeout` and `clearTimeout` per request cost more than
 * the rest of a request's bookkeeping when calls go one at a time (Node builds and drops a timer
 * list for the delay each time the last timer of that delay goes). A request sent while no other
 * is timed has the timer to itself (refreshed, not made anew, when its delay is the last one's);
 * one sent meanwhile re-arms it only if it is due sooner. When it fires, it rejects what is due
 * and re-arms for the next deadline. An answer leaves it armed but unref'd once nothing is
 * timed (cleared, on runtimes whose timers cannot be), so it never keeps a process alive;
 * while a request waits, it holds the process as a timer per request did.
 */
export class OutboundRequests {
  /** By id, not in a Map (pending-by-id.ts says why). */
  readonly #pending = new PendingById<Pending>();
  readonly #timeoutError: (method: string, params: unknown, timeoutMs: number) => unknown;
  readonly #onTimeout: (id: JsonRpcId, error: unknown) => void;
  #nextId: number;
  #timer?: ReturnType<typeof setTimeout>;
  /** The deadline the timer is armed for (`Infinity`: not armed). */
  #armedFor = Number.POSITIVE_INFINITY;
  /** The delay the timer was last set with, which `refresh()` starts over. */
  #armedDelay = 0;
  /** Pending requests with a finite timeout: what the timer waits for. */
  #timed = 0;

  /**
   * `firstId`: where this side's ids start (see `Channel.firstOutboundId`); `timeoutError`: what
   * a request that timed out rejects with (built only then); `onTimeout`: told each request
   * given up on its timeout, after its promise was rejected with that error.
   */
  constructor(
    firstId = 0,
    timeoutError: (method: string, params: unknown, timeoutMs: number) => unknown = (
      _method,
      _params,
      timeoutMs,
    ) => new JsonRpcError(REQUEST_TIMEOUT_CODE, `Request timed out after ${timeoutMs} ms`),
    onTimeout: (id: JsonRpcId, error: unknown) => void = () => {},
  ) {
    this.#nextId = firstId;
    this.#timeoutError = timeoutError;
    this.#onTimeout = onTimeout;
  }

  /**
   * Opens a request for `method` with `params` (kept for its timeout error); a `timeoutMs` of
   * `Infinity` waits for the answer however long it takes.
   */
  open(
    timeoutMs: number,
    method: string,
    params: unknown,
  ): { id: JsonRpcId; done: Promise<unknown> } {
    const id = this.#nextId++;
    const finite = Number.isFinite(timeoutMs);
    const deadline = finite ? now() + timeoutMs : Number.POSITIVE_INFINITY;
    const done = new Promise<unknown>((resolve, reject) => {
      this.#pending.add({ id, resolve, reject, method, params, deadline, timeoutMs });
    });
    if (finite) {
      // The first request timed while nothing else is gets the timer to itself, exactly as a
      // timer of its own; later ones re-arm it only when they are due sooner than it fires.
      if (this.#timed++ === 0) this.#rearm(deadline, timeoutMs);
      else if (deadline < this.#armedFor) this.#arm(deadline);
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
    this.#forget(pending);
    if (error) pending.reject(new JsonRpcError(error.code, error.message, error.data));
    else pending.resolve(result);
    return true;
  }

  abandon(id: JsonRpcId, reason: unknown): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#forget(pending);
    pending.reject(reason);
    return true;
  }

  rejectAll(reason: unknown): void {
    for (const { id } of this.#pending.entries()) this.abandon(id, reason);
  }

  get size(): number {
    return this.#pending.size;
  }

  #forget(pending: Pending): void {
    this.#pending.delete(pending);
    if (
      pending.deadline !== Number.POSITIVE_INFINITY &&
      --this.#timed === 0 &&
      this.#timer !== undefined
    ) {
      if (refable(this.#timer)) this.#timer.unref();
      else this.#disarm();
    }
  }

  /** Arms the one timer for `deadline`, `delay` ms from now (default: computed from the clock). */
  #arm(deadline: number, delay = Math.ceil(deadline - now())): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    // setTimeout clamps delays past 2^31-1 ms to 1 ms: a longer wait is re-armed on the way.
    const clamped = Math.min(Math.max(delay, 1), MAX_DELAY_MS);
    this.#armedFor = deadline;
    this.#armedDelay = clamped;
    this.#timer = setTimeout(this.#fired, clamped);
  }

  /** Arms the idle timer for a request `timeoutMs` from now: refreshed when its delay is that. */
  #rearm(deadline: number, timeoutMs: number): void {
    const timer = this.#timer;
    if (refable(timer) && timer.refresh && this.#armedDelay === timeoutMs) {
      timer.refresh();
      timer.ref();
      this.#armedFor = deadline;
    } else this.#arm(deadline, timeoutMs);
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  readonly #fired = () => this.#expire();

  #expire(): void {
    // The timer fired for `#armedFor`: what was due by then is due, whatever the clock says
    // (timers a test fakes move while the clock stands still).
    const time = Math.max(now(), this.#armedFor);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    let next = Number.POSITIVE_INFINITY;
    const due: Pending[] = [];
    for (const pending of this.#pending.entries()) {
      const deadline = pending.deadline;
      if (deadline <= time) due.push(pending);
      else if (deadline < next) next = deadline;
    }
    for (const pending of due) {
      const id = pending.id;
      // A request an earlier rejection's handler settled or gave up meanwhile is not due.
      if (this.#pending.get(id) !== pending) continue;
      this.#pending.delete(pending);
      this.#timed--;
      const error = this.#timeoutError(pending.method, pending.params, pending.timeoutMs);
      pending.reject(error);
      this.#onTimeout(id, error);
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
