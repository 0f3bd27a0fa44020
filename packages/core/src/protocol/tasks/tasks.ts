import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';
import { LimitError } from '../guards/index.js';
import { ended, withStatus, type Entry, type TaskEnd } from './task-entry.js';
import { newTaskId } from './task-ids.js';
import { TASK_LIMIT_DEFAULTS, type TaskLimits } from './task-limits.js';
import { TERMINAL, type TaskOutcome, type TaskSnapshot, type TaskStatus } from './task-snapshot.js';

/** What the work behind a task is handed: its signal, and the way to ask the client something. */
export interface TaskWork {
  /** Aborts when the task is cancelled or expires. */
  readonly signal: AbortSignal;
  /**
   * Puts a question to the client through the task (`input_required` until it is answered) and
   * resolves with the answer. `key` names it in `inputRequests` (default `input_<n>`); a key is
   * used once per task.
   */
  ask(method: string, params: unknown, key?: string): Promise<unknown>;
  /** Sets the task's `statusMessage` (progress a poller can read). */
  setStatusMessage(message: string): void;
}

/** How long a task lives and how often its client should look at it. */
export interface TaskTiming {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/**
 * How a task's questions reach the client when not through `inputRequests`: 2025-11-25 sends
 * them as ordinary server→client requests on the session (tagged with the task), the task
 * showing `input_required` while it waits.
 */
export type TaskRelay = (
  method: string,
  params: unknown,
  taskId: string,
  signal: AbortSignal,
) => Promise<unknown>;

/** A task status change, for whoever pushes `notifications/tasks`. */
export type TaskListener = (owner: string, snapshot: TaskSnapshot) => void;

/**
 * The tasks of one server: each runs its work detached from the request that started it, can
 * stop to ask the client something, and is kept (bounded, owner-bound) until its time-to-live
 * ends. Era-neutral: the eras give snapshots their wire shape.
 */
export class Tasks {
  readonly #limits: Required<TaskLimits>;
  readonly #entries = new Map<string, Entry>();
  readonly #perOwner = new Map<string, number>();
  // Ids that expired, so a late poll hears "expired" rather than "not found"; bounded FIFO.
  readonly #expired = new Set<string>();
  readonly #listeners = new Set<TaskListener>();
  readonly #now: () => number;

  constructor(limits: TaskLimits = {}, now: () => number = Date.now) {
    this.#limits = { ...TASK_LIMIT_DEFAULTS, ...limits };
    this.#now = now;
  }

  /** The most a tool may ask for as its tasks' time-to-live. */
  get maxTtlMs(): number {
    return this.#limits.maxTtlMs;
  }

  /** Calls `listener` on every status change until the returned function is called. */
  listen(listener: TaskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts `work` as a task owned by `owner` and returns its first snapshot (`working`); the
   * task is readable by {@link get} before this returns. Refused with a {@link LimitError} when
   * the server or the owner holds as many tasks as the limits allow.
   */
  start(
    owner: string,
    timing: TaskTiming,
    work: (task: TaskWork) => Promise<TaskOutcome>,
    relay?: TaskRelay,
  ): TaskSnapshot {
    const held = this.#perOwner.get(owner) ?? 0;
    if (held >= this.#limits.maxTasksPerOwner) {
      throw new LimitError(
        'tasks',
        `task refused: this caller already holds ${held} tasks (limits.tasks.maxTasksPerOwner); let some finish and expire, cancel some, or raise the limit`,
      );
    }
    if (this.#entries.size >= this.#limits.maxTasks) {
      throw new LimitError(
        'tasks',
        `task refused: the server holds ${this.#entries.size} tasks (limits.tasks.maxTasks); try again later, or raise the limit`,
      );
    }
    const ttlMs = Math.min(Math.max(1, Math.round(timing.ttlMs)), this.#limits.maxTtlMs);
    const at = new Date(this.#now()).toISOString();
    const taskId = newTaskId();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const expiry = setTimeout(() => this.#expire(taskId), ttlMs);
    (expiry as { unref?: () => void }).unref?.();
    const entry: Entry = {
      owner,
      snapshot: {
        taskId,
        status: 'working',
        createdAt: at,
        lastUpdatedAt: at,
        ttlMs,
        pollIntervalMs: Math.max(1, Math.round(timing.pollIntervalMs)),
      },
      abort: new AbortController(),
      questions: new Map(),
      usedKeys: new Set(),
      relaying: 0,
      expiry,
      settled,
      settle,
    };
    this.#entries.set(taskId, entry);
    this.#perOwner.set(owner, held + 1);
    const first = entry.snapshot;
    queueMicrotask(() => this.#run(entry, work, relay));
    return first;
  }

  /** The task as it is now; -32602 when it does not exist, expired, or belongs to someone else. */
  get(owner: string, taskId: unknown, verb = 'retrieve'): TaskSnapshot {
    return this.#find(owner, taskId, verb).snapshot;
  }

  /** The tasks `owner` holds (2025-11-25 `tasks/list`), newest last. */
  list(owner: string): TaskSnapshot[] {
    return [...this.#entries.values()].filter((e) => e.owner === owner).map((e) => e.snapshot);
  }

  /** Resolves when the task is terminal, with its final snapshot (2025-11-25 `tasks/result`). */
  async settled(owner: string, taskId: unknown): Promise<TaskSnapshot> {
    const entry = this.#find(owner, taskId, 'retrieve');
    await entry.settled;
    return entry.snapshot;
  }

  /**
   * Answers the task's waiting questions: keys not waiting (never asked, answered already) are
   * ignored, as the extension asks; the task goes back to `working` when none is left.
   */
  update(owner: string, taskId: unknown, responses: Readonly<Record<string, unknown>>): void {
    const entry = this.#find(owner, taskId, 'update');
    for (const [key, value] of Object.entries(responses)) {
      const question = entry.questions.get(key);
      if (!question) continue;
      entry.questions.delete(key);
      question.answer(value);
    }
    if (
      entry.snapshot.status === 'input_required' &&
      entry.questions.size === 0 &&
      entry.relaying === 0
    )
      this.#change(entry, 'working');
    else if (entry.snapshot.status === 'input_required') this.#change(entry, 'input_required');
  }

  /**
   * Cancels the task: its signal aborts, its questions are withdrawn and it is `cancelled` from
   * now on, whatever the work does next. A terminal task stays as it is (cancel is idempotent).
   */
  cancel(owner: string, taskId: unknown): TaskSnapshot {
    const entry = this.#find(owner, taskId, 'cancel');
    if (TERMINAL.has(entry.snapshot.status)) return entry.snapshot;
    this.#finish(entry, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    entry.abort.abort(new Error('the task was cancelled'));
    return entry.snapshot;
  }

  /** Stops every task (the server is closing). */
  close(): void {
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.expiry);
      entry.abort.abort(new Error('the server closed'));
      this.#drop(entry);
    }
  }

  /** How many tasks are kept, for limits and tests. */
  get size(): number {
    return this.#entries.size;
  }

  async #run(
    entry: Entry,
    work: (task: TaskWork) => Promise<TaskOutcome>,
    relay: TaskRelay | undefined,
  ): Promise<void> {
    let next = 0;
    const task: TaskWork = {
      signal: entry.abort.signal,
      ask: (method, params, key) => {
        if (relay) return this.#relay(entry, relay, method, params);
        const name = key ?? `input_${++next}`;
        return this.#ask(entry, name, method, params);
      },
      setStatusMessage: (message) => {
        if (!TERMINAL.has(entry.snapshot.status))
          this.#change(entry, entry.snapshot.status, message);
      },
    };
    let outcome: TaskOutcome;
    try {
      outcome = await work(task);
    } catch (error) {
      // The caller maps handler errors itself; what reaches here is a bug in that mapping.
      outcome = {
        error: {
          code: ErrorCode.InternalError,
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
    if (TERMINAL.has(entry.snapshot.status) || !this.#entries.has(entry.snapshot.taskId)) return;
    if ('result' in outcome) this.#finish(entry, { status: 'completed', result: outcome.result });
    else
      this.#finish(entry, {
        status: 'failed',
        error: outcome.error,
        statusMessage: outcome.error.message,
      });
  }

  #ask(entry: Entry, key: string, method: string, params: unknown): Promise<unknown> {
    if (entry.abort.signal.aborted) return Promise.reject(entry.abort.signal.reason);
    if (entry.usedKeys.has(key)) {
      return Promise.reject(
        new Error(
          `the task already asked a question keyed "${key}": keys are used once per task; give each question its own key`,
        ),
      );
    }
    if (entry.questions.size >= this.#limits.maxInputRequestsPerTask) {
      return Promise.reject(
        new LimitError(
          'tasks',
          `${method} refused: the task already waits for ${entry.questions.size} answers (limits.tasks.maxInputRequestsPerTask); await them first`,
        ),
      );
    }
    entry.usedKeys.add(key);
    return new Promise((resolve, reject) => {
      entry.questions.set(key, { method, params, answer: resolve, fail: reject });
      this.#change(entry, 'input_required');
    });
  }

  async #relay(entry: Entry, relay: TaskRelay, method: string, params: unknown): Promise<unknown> {
    if (entry.abort.signal.aborted) throw entry.abort.signal.reason;
    entry.relaying++;
    this.#change(entry, 'input_required');
    try {
      return await relay(method, params, entry.snapshot.taskId, entry.abort.signal);
    } finally {
      entry.relaying--;
      const idle = entry.relaying === 0 && entry.questions.size === 0;
      if (entry.snapshot.status === 'input_required' && idle) this.#change(entry, 'working');
    }
  }

  #find(owner: string, taskId: unknown, verb: string): Entry {
    if (typeof taskId !== 'string' || taskId === '') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Failed to ${verb} task: params.taskId must be a non-empty string`,
      );
    }
    const entry = this.#entries.get(taskId);
    // Another caller's task is "not found": its existence is not ours to reveal.
    if (entry && entry.owner === owner) return entry;
    const why = this.#expired.has(taskId) && !entry ? 'Task has expired' : 'Task not found';
    throw new JsonRpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: ${why}`);
  }

  #change(entry: Entry, status: TaskStatus, statusMessage?: string): void {
    entry.snapshot = withStatus(entry, status, this.#now(), statusMessage);
    this.#emit(entry);
  }

  #finish(entry: Entry, end: TaskEnd): void {
    entry.snapshot = ended(entry.snapshot, end, this.#now());
    for (const question of entry.questions.values())
      question.fail(new Error(`the task is ${end.status}`));
    entry.questions.clear();
    entry.settle();
    this.#emit(entry);
  }

  #expire(taskId: string): void {
    const entry = this.#entries.get(taskId);
    if (!entry) return;
    entry.abort.abort(new Error('the task expired'));
    this.#drop(entry);
    this.#expired.add(taskId);
    if (this.#expired.size > this.#limits.maxTasks) {
      const oldest = this.#expired.values().next().value;
      if (oldest !== undefined) this.#expired.delete(oldest);
    }
  }

  #drop(entry: Entry): void {
    for (const question of entry.questions.values()) question.fail(new Error('the task ended'));
    entry.questions.clear();
    entry.settle();
    this.#entries.delete(entry.snapshot.taskId);
    const held = (this.#perOwner.get(entry.owner) ?? 1) - 1;
    if (held > 0) this.#perOwner.set(entry.owner, held);
    else this.#perOwner.delete(entry.owner);
  }

  #emit(entry: Entry): void {
    for (const listener of this.#listeners) listener(entry.owner, entry.snapshot);
  }
}
