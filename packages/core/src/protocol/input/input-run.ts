import { isThenable, UserError } from '../../registry/index.js';
import type { LimitError } from '../guards/limit-error.js';
import type { RequestRecord } from '../request-record.js';
import type { RequestStateCodec } from './request-state.js';
import type { RoundBinding } from './round-binding.js';

/** Where a call came from, for naming its client: the connection's session, if any. */
export interface Origin {
  readonly sessionId: string | undefined;
}

/** What a run needs of the table that made it (`InputRuns`, which imports this file). */
export interface RunTable {
  readonly maxRounds: number;
  readonly codec: RequestStateCodec;
  binding(record: RequestRecord): RoundBinding;
  park(run: InputRun, origin: Origin | undefined): LimitError | undefined;
  release(run: InputRun): void;
}

interface Waiting {
  readonly request: { method: string; params: unknown };
  /** The handler takes an answer sent before it asked (`acceptUnasked`). */
  readonly unasked?: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Where a run starts: fresh, or replayed from a `requestState` with the answers so far. */
export interface RunStart {
  /** Answers known before the handler runs (a replay's, from its state); none for most calls. */
  readonly answers?: Record<string, unknown>;
  /**
   * Answers sent without a `requestState`: they answer only first-round questions asked with
   * `acceptUnasked`; any other key is never used.
   */
  readonly offered?: Record<string, unknown>;
  /** When the call's first round began (ms since the epoch); unset for a fresh call. */
  readonly start?: number;
  /** The rounds the call already took (a replay's, from its state). */
  readonly round?: number;
  /** The call a replay's state was issued for (already checked against the retry). */
  readonly bind?: RoundBinding;
  readonly replay: boolean;
}

/** What a call that went on as a task asks through, and is aborted by. */
export interface TaskPort {
  readonly signal: AbortSignal;
  ask(method: string, params: unknown, key?: string): Promise<unknown>;
  setStatusMessage(message: string): void;
}

/** The 2026-07-28 interim result asking the client for input. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: unknown }>;
  requestState: string;
}

/**
 * One handler call that may ask the client for input under 2026-07-28 (multi round-trip
 * requests). Each question gets a key from the order it was asked in, so a replay asks the same
 * keys; known answers resolve at once, unknown ones are collected for a tick (so questions asked
 * together with `Promise.all` share a round) and sent as an `input_required` result. While the
 * handler waits in this process, the retry resumes it where it awaited; otherwise the retry
 * replays it from the top with the answers carried in the signed state.
 */
export class InputRun {
  // When the call's first round began (ms since the epoch), across replays: read by a timeout
  // (as the call starts) and carried in requestState; a fresh run reads the clock on first use.
  #startedAt?: number;
  /** Replayed from a `requestState`: the call was already counted (rate limits) and timed. */
  readonly replay: boolean;
  // Both maps are built on first use: most calls never ask for input, and this is the hot path
  // of every 2026-07-28 call.
  #answers?: Map<string, unknown>;
  #waiting?: Map<string, Waiting>;
  #offered?: Record<string, unknown>;
  #bind?: RoundBinding;
  // Built, and linked to the request's signal, only when something reads `signal`: most handlers
  // never do, and an AbortController plus a listener on the request's own signal (which builds
  // that signal too) cost microseconds per call on Node 20, mostly in GC. Until then, the
  // request's abort is looked up when it matters.
  #controller?: AbortController;
  #abort?: { reason: unknown };
  // The pending outcome of the current round (the handler's result or an input_required).
  #resolve?: (value: unknown) => void;
  #reject?: (error: unknown) => void;
  #seq = 0;
  #rounds = 0;
  #scheduled = false;
  #finished = false;
  #record: RequestRecord;
  #id?: string;
  // Once the call went on as a task (`ctx.runAsTask()`): where its questions and signal come from.
  #task?: TaskPort;
  #detached = false;
  /**
   * Set by `tools/call` when this call may go on as a task (its tool is `deferred` and the request
   * can take a task): starts the task and resolves once the handler runs as its work.
   */
  detacher?: () => Promise<boolean>;

  /**
   * `id` is a replayed run's (from its state); a new run mints one when it first needs it.
   * `origin` is the connection it came on (its session names the client for the caps).
   */
  constructor(
    id: string | undefined,
    record: RequestRecord,
    from: RunStart,
    private readonly runs: RunTable,
    private readonly origin?: Origin,
  ) {
    this.#id = id;
    this.#record = record;
    if (from.answers)
      for (const key of Object.keys(from.answers)) this.#answerMap().set(key, from.answers[key]);
    this.#offered = from.offered;
    this.#startedAt = from.start;
    this.#rounds = from.round ?? 0;
    this.#bind = from.bind;
    this.replay = from.replay;
  }

  /** When the call's first round began (ms since the epoch), across replays. */
  get startedAt(): number {
    return (this.#startedAt ??= Date.now());
  }

  /** Fixes the call's start to `now` if it has none yet (a guard that read the clock anyway). */
  startAt(now: number): void {
    this.#startedAt ??= now;
  }

  /** Names the run in its `requestState` and among the parked runs. */
  get id(): string {
    // Minted on first use: most calls never ask for input, and a UUID per call is measurable.
    return (this.#id ??= globalThis.crypto.randomUUID());
  }

  /** The request currently driving the handler (progress tokens, log level, capabilities). */
  get record(): RequestRecord {
    return this.#record;
  }

  /** Aborted when the request currently driving the handler is cancelled, or the run expires. */
  get signal(): AbortSignal {
    if (this.#task && !this.#controller) return this.#task.signal;
    if (!this.#controller) {
      this.#noteAbort();
      this.#controller = new AbortController();
      if (this.#abort) this.#controller.abort(this.#abort.reason);
      else this.#follow(this.#record);
    }
    return this.#controller.signal;
  }

  /**
   * Runs `execute` (the handler call, handed this run): its result, or a promise of the result or of an
   * `input_required`. A call that finishes synchronously asked nothing and is simply answered.
   */
  start(execute: (run: InputRun) => unknown): unknown {
    let value: unknown;
    try {
      value = execute(this);
    } catch (error) {
      this.#settle();
      throw error;
    }
    if (!isThenable(value)) {
      this.#settle();
      return value;
    }
    // Questions asked so far wait for a macrotask (#schedule), so the outcome is in place first.
    const outcome = this.#next();
    value.then(
      (result) => {
        const resolve = this.#resolve;
        this.#settle();
        resolve?.(result);
      },
      (error) => {
        const reject = this.#reject;
        this.#settle();
        reject?.(error);
      },
    );
    return outcome;
  }

  /** A retry reached the live handler: deliver its answers and wait for the next outcome. */
  resume(record: RequestRecord, responses: Record<string, unknown>): Promise<unknown> {
    // The request being replaced is answered: it cannot be aborted any more, so this is final.
    if (!this.#controller) this.#noteAbort();
    this.#record = record;
    if (this.#controller) this.#follow(record);
    const outcome = this.#next();
    const waitingFor = this.#waiting;
    if (!waitingFor) return outcome;
    for (const [key, waiting] of waitingFor) {
      if (!Object.hasOwn(responses, key) || !isAnswer(responses[key])) continue;
      this.#answerMap().set(key, responses[key]);
      waitingFor.delete(key);
      waiting.resolve(responses[key]);
    }
    // Questions still unanswered are asked again (a missing answer is not an error).
    if (waitingFor.size > 0) this.#schedule();
    return outcome;
  }

  /**
   * The call goes on as a task: the request driving it now is answered with `answer` (the
   * task's creation) instead of the handler's result, and the request's end no longer aborts
   * the handler. {@link bindTask} then hands it the task's questions and signal.
   */
  detach(answer: unknown): void {
    this.#detached = true;
    this.detacher = undefined;
    // The round's outcome is set up right after the handler's synchronous start (see start).
    queueMicrotask(() => {
      const resolve = this.#resolve;
      this.#settle();
      resolve?.(answer);
    });
  }

  /** Whether the call runs as a task now. */
  get detached(): boolean {
    return this.#detached;
  }

  /** From now on questions go to `task`, and its cancellation or expiry aborts the handler. */
  bindTask(task: TaskPort): void {
    this.#task = task;
    const signal = task.signal;
    if (signal.aborted) this.#abortWith(signal.reason, true);
    else
      signal.addEventListener('abort', () => this.#abortWith(signal.reason, true), { once: true });
  }

  /**
   * Progress of a call that runs as a task, for whoever polls it: the task's `statusMessage`
   * (a task's own request has ended, so progress notifications no longer reach anyone).
   */
  noteProgress(message: string): void {
    this.#task?.setStatusMessage(message);
  }

  /** Called by `ctx.elicit` and friends: the answer, now or after a round trip. */
  ask(method: string, params: unknown, key?: string, unasked?: boolean): Promise<unknown> {
    if (this.#task) return this.#task.ask(method, params, key);
    const k = key ?? `input_${++this.#seq}`;
    if (this.#answers?.has(k)) return Promise.resolve(this.#answers.get(k));
    return new Promise((resolve, reject) => {
      (this.#waiting ??= new Map()).set(k, {
        request: { method, params },
        unasked,
        resolve,
        reject,
      });
      this.#schedule();
    });
  }

  expire(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (!this.#controller) this.#noteAbort();
    this.#abortWith('the client did not come back with the requested input');
    for (const w of this.#waiting?.values() ?? [])
      w.reject(new UserError('the client did not come back with the requested input'));
  }

  #answerMap(): Map<string, unknown> {
    return (this.#answers ??= new Map());
  }

  #next(): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** The handler finished: the pending outcome (taken by the caller first) is its last. */
  #settle(): void {
    this.#finished = true;
    this.#resolve = this.#reject = undefined;
    // Only a run that sent a round can have been parked (see #emit).
    if (this.#rounds > 0) this.runs.release(this);
  }

  #follow(record: RequestRecord): void {
    const signal = record.request.signal;
    signal.addEventListener('abort', () => this.#abortWith(signal.reason), { once: true });
  }

  /** Unlinked, the current request's abort is taken over when the signal is built or left. */
  #noteAbort(): void {
    const request = this.#record.request;
    if (request.aborted) this.#abortWith(request.signal.reason);
  }

  #abortWith(reason: unknown, fromTask = false): void {
    // A task outlives the request that started it: only the task's own end aborts it.
    if (this.#abort || (this.#detached && !fromTask)) return;
    this.#abort = { reason };
    this.#controller?.abort(reason);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // One macrotask: questions asked together (Promise.all) land in the same round.
    setImmediate(() => this.#emit());
  }

  #emit(): void {
    this.#scheduled = false;
    const waiting = this.#waiting;
    if (!waiting || this.#finished) return;
    this.#takeOffered(waiting);
    if (waiting.size === 0 || !this.#resolve) return;
    if (++this.#rounds > this.runs.maxRounds) {
      this.#refuse(
        waiting,
        new UserError(`gave up after ${this.runs.maxRounds} rounds of asking the client for input`),
      );
      return;
    }
    const inputRequests: InputRequiredResult['inputRequests'] = {};
    for (const [key, w] of waiting) inputRequests[key] = w.request;
    let requestState: string;
    try {
      requestState = this.runs.codec.mint({
        run: this.id,
        round: this.#rounds,
        bind: (this.#bind ??= this.runs.binding(this.#record)),
        asked: Object.keys(inputRequests),
        answers: Object.fromEntries(this.#answers ?? []),
        start: this.startedAt,
      });
    } catch (error) {
      // Arguments too deep to bind the round to: the question fails, not the process.
      this.#refuse(waiting, error as Error);
      return;
    }
    const refused = this.runs.park(this, this.origin);
    if (refused) {
      this.#refuse(waiting, refused);
      return;
    }
    const result: InputRequiredResult = {
      resultType: 'input_required',
      inputRequests,
      requestState,
    };
    const resolve = this.#resolve;
    this.#resolve = this.#reject = undefined;
    resolve(result);
  }

  /**
   * The first round's questions asked with `acceptUnasked` take the answers sent without a
   * state; after it, those answers are dropped, so no later question is answered unasked.
   */
  #takeOffered(waiting: Map<string, Waiting>): void {
    const offered = this.#offered;
    if (!offered) return;
    this.#offered = undefined;
    for (const [key, w] of waiting) {
      if (!w.unasked || !Object.hasOwn(offered, key)) continue;
      this.#answerMap().set(key, offered[key]);
      waiting.delete(key);
      w.resolve(offered[key]);
    }
  }

  #refuse(waiting: Map<string, Waiting>, error: Error): void {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  }
}

// An answer is a result object (elicitation, sampling or roots result); anything else counts
// as missing and is asked for again.
export function isAnswer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
