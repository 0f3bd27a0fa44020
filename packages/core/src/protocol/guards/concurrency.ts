import { sessionKey, type GuardedCall } from './call.js';
import { Gate } from './gate.js';

/**
 * How many handler calls may run at once. Calls beyond a cap wait in a queue of at most
 * `maxQueued` per cap (default 100), then are refused with a message saying so (an `isError`
 * result for tools). A call holds its slot until its handler settles, so handlers should stop
 * when `ctx.signal` aborts.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Tools], limits: { concurrency: { perSession: 4, perServer: 64 } } });
 * ```
 */
export interface ConcurrencyLimits {
  /** Per session (2026-07-28 over HTTP: per client address). */
  readonly perSession?: number;
  /** Across the whole server. */
  readonly perServer?: number;
  readonly maxQueued?: number;
}

/**
 * The concurrency caps: a gate per session (forgotten when idle) and one for the server. A
 * call takes its session's slot first, then the server's, and holds both until its handler
 * settles — even after a timeout answered the client, so the caps count what really runs.
 */
export class ConcurrencyLimiter {
  readonly #sessions = new Map<string, Gate>();
  readonly #server?: Gate;
  readonly #perSession?: number;
  readonly #maxQueued: number;

  constructor(limits: ConcurrencyLimits) {
    this.#maxQueued = limits.maxQueued ?? 100;
    this.#perSession = limits.perSession;
    if (limits.perServer !== undefined)
      this.#server = new Gate(limits.perServer, this.#maxQueued, 'on this server (perServer)');
  }

  /** Calls waiting or running per session right now (tests and metrics). */
  get sessions(): number {
    return this.#sessions.size;
  }

  // Promise chains rather than async/await: a free slot is taken without a microtask, so a
  // cap that is not reached costs little more than the map lookup.
  run<T>(call: GuardedCall, invoke: () => Promise<T>): Promise<T> {
    const key = sessionKey(call);
    const session = this.#session(key);
    const undo = () => this.#forget(key, session);
    return after(
      () => session?.enter(call),
      undo,
      () => {
        const release = () => {
          this.#server?.leave();
          session?.leave();
          this.#forget(key, session);
        };
        const leaveSession = () => {
          session?.leave();
          this.#forget(key, session);
        };
        return after(
          () => this.#server?.enter(call),
          leaveSession,
          () => settle(invoke, release),
        );
      },
    );
  }

  #session(key: string): Gate | undefined {
    if (this.#perSession === undefined) return undefined;
    let gate = this.#sessions.get(key);
    if (!gate) {
      gate = new Gate(this.#perSession, this.#maxQueued, 'for this session (perSession)');
      this.#sessions.set(key, gate);
    }
    return gate;
  }

  #forget(key: string, gate: Gate | undefined): void {
    if (gate?.idle) this.#sessions.delete(key);
  }
}

/** Runs `next` once `enter` has a slot (now, or after waiting); on refusal runs `undo` and fails. */
function after<T>(
  enter: () => Promise<void> | undefined,
  undo: () => void,
  next: () => Promise<T>,
): Promise<T> {
  let waiting: Promise<void> | undefined;
  try {
    waiting = enter();
  } catch (error) {
    undo();
    return Promise.reject(error);
  }
  if (!waiting) return next();
  return waiting.then(next, (error: unknown) => {
    undo();
    throw error;
  });
}

/** Runs the handler and frees its slots when it settles, however it settles. */
function settle<T>(invoke: () => Promise<T>, release: () => void): Promise<T> {
  let running: Promise<T>;
  try {
    running = invoke();
  } catch (error) {
    release();
    return Promise.reject(error);
  }
  return running.then(
    (value) => {
      release();
      return value;
    },
    (error: unknown) => {
      release();
      throw error;
    },
  );
}
