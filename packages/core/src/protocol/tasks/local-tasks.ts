// The tasks whose work runs on this instance: their entries, questions, relays and status writes.
import { ErrorCode } from '../error-codes.js';
import { ended, withStatus, type Entry, type TaskEnd } from './task-entry.js';
import { newTaskId } from './task-ids.js';
import type { TaskLimits } from './task-limits.js';
import type { TaskPlace } from './task-place.js';
import { taskLimitReached, taskStoreFailure } from './task-refusals.js';
import { answer, ask, relayed } from './task-questions.js';
import { TERMINAL, type TaskOutcome, type TaskSnapshot, type TaskStatus } from './task-snapshot.js';
import type { TaskListener, TaskRelay, TaskTiming, TaskWork } from './task-work.js';

/**
 * The tasks running here: what cannot leave the process (the work, its abort switch, the
 * questions waiting) stays in their {@link Entry}, and every status change is written to the
 * task's record, which is what every instance reads.
 */
export class LocalTasks {
  readonly #entries = new Map<string, Entry>();
  readonly #place: TaskPlace;
  readonly #limits: Required<TaskLimits>;
  readonly #now: () => number;
  readonly #emit: TaskListener;

  constructor(
    place: TaskPlace,
    limits: Required<TaskLimits>,
    now: () => number,
    emit: TaskListener,
  ) {
    this.#place = place;
    this.#limits = limits;
    this.#now = now;
    this.#emit = emit;
  }

  /** How many tasks run (or are kept after ending) here. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry of `taskId` if it runs here (expired or not: see {@link expire}). */
  entry(taskId: string): Entry | undefined {
    return this.#entries.get(taskId);
  }

  /** See `Tasks.start`. */
  async start(
    owner: string,
    timing: TaskTiming,
    work: (task: TaskWork) => Promise<TaskOutcome>,
    relay?: TaskRelay,
  ): Promise<TaskSnapshot> {
    const ttlMs = Math.min(Math.max(1, Math.round(timing.ttlMs)), this.#limits.maxTtlMs);
    const now = this.#now();
    const at = new Date(now).toISOString();
    const taskId = newTaskId();
    const snapshot: TaskSnapshot = {
      taskId,
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      pollIntervalMs: Math.max(1, Math.round(timing.pollIntervalMs)),
    };
    const { maxTasks, maxTasksPerOwner } = this.#limits;
    const record = {
      owner,
      node: this.#place.node,
      snapshot: JSON.stringify(snapshot),
      terminal: false,
    };
    let refused: 'maxTasks' | 'maxTasksPerOwner' | undefined;
    try {
      refused = await this.#place.records.create(taskId, record, now + ttlMs, {
        maxTasks,
        maxTasksPerOwner,
      });
    } catch (error) {
      throw taskStoreFailure(error);
    }
    if (refused === 'maxTasksPerOwner')
      throw taskLimitReached(
        refused,
        `task refused: this caller already has ${maxTasksPerOwner} tasks working (limits.tasks.maxTasksPerOwner); wait for one to end, cancel one, or raise the limit`,
      );
    if (refused === 'maxTasks')
      throw taskLimitReached(
        refused,
        `task refused: the server holds ${maxTasks} tasks (limits.tasks.maxTasks); try again later, or raise the limit`,
      );
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const expiry = setTimeout(() => this.expire(taskId), ttlMs);
    (expiry as { unref?: () => void }).unref?.();
    const entry: Entry = {
      owner,
      snapshot,
      abort: new AbortController(),
      questions: new Map(),
      usedKeys: new Set(),
      relaying: 0,
      expiry,
      settled,
      settle,
      writes: Promise.resolve(),
    };
    this.#entries.set(taskId, entry);
    queueMicrotask(() => this.#run(entry, work, relay));
    return snapshot;
  }

  /** Answers the entry's waiting questions (see `Tasks.update`). */
  answer(entry: Entry, responses: Readonly<Record<string, unknown>>): void {
    answer(entry, responses, (status) => this.#change(entry, status));
  }

  /** Ends the entry with `end` and aborts its work (a cancel). */
  end(entry: Entry, end: TaskEnd, reason: Error): void {
    this.#finish(entry, end);
    entry.abort.abort(reason);
  }

  /** Takes on the end another instance wrote for a task running here: its work stops. */
  adopt(entry: Entry, snapshot: TaskSnapshot): void {
    entry.snapshot = snapshot;
    for (const question of entry.questions.values())
      question.fail(new Error(`the task is ${snapshot.status}`));
    entry.questions.clear();
    entry.settle();
    entry.abort.abort(new Error(`the task was ${snapshot.status} on another server instance`));
  }

  /** Drops the task past its time-to-live: its work stops. */
  expire(taskId: string): void {
    const entry = this.#entries.get(taskId);
    if (!entry) return;
    entry.abort.abort(new Error('the task expired'));
    this.#drop(entry);
  }

  /** Stops every task running here (the server is closing). */
  close(): void {
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.expiry);
      entry.abort.abort(new Error('the server closed'));
      this.#drop(entry);
    }
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
        const change = (status: TaskStatus) => this.#change(entry, status);
        if (relay) return relayed(entry, relay, method, params, change);
        const name = key ?? `input_${++next}`;
        return ask(entry, name, method, params, this.#limits.maxInputRequestsPerTask, change);
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

  #change(entry: Entry, status: TaskStatus, statusMessage?: string): void {
    entry.snapshot = withStatus(entry, status, this.#now(), statusMessage);
    this.#emit(entry.owner, entry.snapshot);
    this.#write(entry);
  }

  #finish(entry: Entry, end: TaskEnd): void {
    const now = this.#now();
    const done = ended(entry.snapshot, end, now);
    // Kept (here and in a shared store) until the task expires: its size is bounded too.
    const max = this.#limits.maxTaskBytes;
    const size = end.result === undefined ? 0 : utf8Bytes(JSON.stringify(done), max);
    if (size > max) {
      const message = `the task's result is larger than limits.tasks.maxTaskBytes (${max} bytes), what a task may keep until it expires; return less (a resource link to the data), or raise the limit`;
      entry.snapshot = ended(
        entry.snapshot,
        {
          status: 'failed',
          error: { code: ErrorCode.LimitReached, message, data: { limit: 'tasks.maxTaskBytes' } },
          statusMessage: message,
        },
        now,
      );
    } else {
      entry.snapshot = done;
    }
    for (const question of entry.questions.values())
      question.fail(new Error(`the task is ${end.status}`));
    entry.questions.clear();
    entry.settle();
    this.#emit(entry.owner, entry.snapshot);
    this.#write(entry);
  }

  /**
   * Writes the entry's snapshot to its record, after the writes before it. A refused write
   * means another instance ended the task first (a cancel, or it took this one for dead): this
   * instance takes that end on.
   */
  #write(entry: Entry): void {
    const snapshot = entry.snapshot;
    const id = snapshot.taskId;
    const terminal = TERMINAL.has(snapshot.status);
    entry.writes = entry.writes
      .then(async () => {
        if (await this.#place.records.update(id, JSON.stringify(snapshot), terminal)) return;
        const record = await this.#place.records.get(id);
        if (typeof record === 'object' && record.terminal)
          this.adopt(entry, JSON.parse(record.snapshot) as TaskSnapshot);
      })
      .catch(() => {
        // The store is unreachable: the next write carries the status; if none comes, this
        // instance's beat stops too and readers report the task failed.
      });
  }

  #drop(entry: Entry): void {
    for (const question of entry.questions.values()) question.fail(new Error('the task ended'));
    entry.questions.clear();
    entry.settle();
    this.#entries.delete(entry.snapshot.taskId);
  }
}

/** The UTF-8 length of `text`, counted exactly only when it could be near `max`. */
function utf8Bytes(text: string, max: number): number {
  if (text.length > max) return text.length;
  if (text.length * 3 <= max) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    // A surrogate pair is 4 bytes: 3 here and 1 for its second half.
    else if (code >= 0xdc00 && code <= 0xdfff) bytes += 1;
    else bytes += 3;
  }
  return bytes;
}
