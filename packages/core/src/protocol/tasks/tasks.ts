import { JsonRpcError } from '../../jsonrpc/index.js';
import type { MessageBus, TaskRecord, TaskRecords } from '../../stores/index.js';
import { ErrorCode } from '../error-codes.js';
import { LimitError } from '../guards/index.js';
import { MemoryTaskRecords } from './memory-task-records.js';
import { ended, withStatus, type Entry, type TaskEnd } from './task-entry.js';
import { newTaskId } from './task-ids.js';
import { TASK_LIMIT_DEFAULTS, type TaskLimits } from './task-limits.js';
import { readTaskMessage, type TaskMessage, topicOf } from './task-messages.js';
import { ownsTask } from './task-owner.js';
import { TERMINAL, type TaskOutcome, type TaskSnapshot, type TaskStatus } from './task-snapshot.js';
import type { TaskListener, TaskRelay, TaskTiming, TaskWork } from './task-work.js';

// An instance that shares its tasks says it is alive this often, for this long: a task whose
// instance has not said so within NODE_TTL_MS is reported failed by whoever reads it.
const BEAT_EVERY_MS = 2_000;
const NODE_TTL_MS = 6_000;
// tasks/result for a task running elsewhere reads its record at the task's poll interval,
// within these bounds (a 1 ms interval must not hammer the store).
const RESULT_POLL_MS = { min: 50, max: 2_000 };
const CANCELLED = 'Cancelled by the client.';
const ORPHANED =
  'the server instance running this task stopped before the task ended; start the task again';

/** A task as a caller may see it: running here (`entry`), else as its record says. */
interface Found {
  readonly entry?: Entry;
  readonly record?: TaskRecord;
  readonly snapshot: TaskSnapshot;
}

/**
 * The tasks of one server: each runs its work detached from the request that started it, can
 * stop to ask the client something, and is kept (bounded, owner-bound) until its time-to-live
 * ends. Era-neutral: the eras give snapshots their wire shape.
 *
 * Every task has a record ({@link TaskRecords}: in memory, or the shared store's once
 * {@link share}d) that any instance reads; what cannot leave the process (the work, its abort
 * switch, the questions waiting) stays with the instance running it, which writes each status
 * change to the record. Answers and cancels for a task running elsewhere travel on the bus to
 * its instance; a task whose instance stopped is reported failed.
 */
export class Tasks {
  readonly #limits: Required<TaskLimits>;
  readonly #local = new Map<string, Entry>();
  readonly #listeners = new Set<TaskListener>();
  readonly #now: () => number;
  #records: TaskRecords;
  #node = 'local';
  #bus?: MessageBus;
  #unshare?: () => void;

  constructor(limits: TaskLimits = {}, now: () => number = Date.now, records?: TaskRecords) {
    this.#limits = { ...TASK_LIMIT_DEFAULTS, ...limits };
    this.#now = now;
    this.#records = records ?? new MemoryTaskRecords(now);
  }

  /** The most a tool may ask for as its tasks' time-to-live. */
  get maxTtlMs(): number {
    return this.#limits.maxTtlMs;
  }

  /**
   * Keeps tasks in `records` from now on, shared with the other instances, which reach the
   * tasks running here through `bus` (topic `task:<node>`); beats for `node` until
   * {@link close}. Resolves once this instance hears its topic.
   */
  async share(records: TaskRecords, bus: MessageBus, node: string): Promise<void> {
    this.#unshare?.();
    this.#records = records;
    this.#bus = bus;
    this.#node = node;
    await records.beat(node, NODE_TTL_MS);
    const stop = await bus.subscribe(topicOf(node), (raw) => this.#received(raw));
    const timer = setInterval(() => {
      records.beat(node, NODE_TTL_MS).catch(() => {
        // The store is unreachable now; the next beat tries again.
      });
    }, BEAT_EVERY_MS);
    (timer as { unref?: () => void }).unref?.();
    this.#unshare = () => {
      clearInterval(timer);
      stop();
    };
  }

  /** Calls `listener` on every status change until the returned function is called. */
  listen(listener: TaskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts `work` as a task recorded under `owner` and resolves with its first snapshot
   * (`working`), readable by {@link get} on every instance by then. Refused with a
   * {@link LimitError} when the server (every instance together) or the owner holds as many
   * tasks as the limits allow.
   */
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
    const record = { owner, node: this.#node, snapshot: JSON.stringify(snapshot), terminal: false };
    const refused = await this.#records.create(taskId, record, now + ttlMs, {
      maxTasks,
      maxTasksPerOwner,
    });
    if (refused === 'maxTasksPerOwner')
      throw new LimitError(
        'tasks',
        `task refused: this caller already holds ${maxTasksPerOwner} tasks (limits.tasks.maxTasksPerOwner); let some finish and expire, cancel some, or raise the limit`,
      );
    if (refused === 'maxTasks')
      throw new LimitError(
        'tasks',
        `task refused: the server holds ${maxTasks} tasks (limits.tasks.maxTasks); try again later, or raise the limit`,
      );
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const expiry = setTimeout(() => this.#expire(taskId), ttlMs);
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
    this.#local.set(taskId, entry);
    queueMicrotask(() => this.#run(entry, work, relay));
    return snapshot;
  }

  /** The task as it is now; -32602 when it does not exist, expired, or belongs to someone else. */
  async get(owner: string, taskId: unknown, verb = 'retrieve'): Promise<TaskSnapshot> {
    return (await this.#find(owner, taskId, verb)).snapshot;
  }

  /**
   * A page of the tasks `owner` holds (2025-11-25 `tasks/list`), oldest first: up to `limit`
   * after `cursor` (a `next` this returned; a RangeError for anything else).
   */
  async list(
    owner: string,
    cursor?: string,
    limit = this.#limits.maxTasksPerOwner,
  ): Promise<{ tasks: TaskSnapshot[]; next?: string }> {
    const page = await this.#records.list(owner, cursor, Math.max(1, limit));
    const found = await Promise.all(
      page.ids.map((id) => this.#find(owner, id, 'retrieve').catch(() => undefined)),
    );
    const tasks = found.flatMap((f) => (f ? [f.snapshot] : []));
    return page.next === undefined ? { tasks } : { tasks, next: page.next };
  }

  /**
   * Resolves when the task is terminal, with its final snapshot (2025-11-25 `tasks/result`),
   * or rejects when `signal` aborts first. A task running elsewhere is read at its poll
   * interval until it ends or expires.
   */
  async settled(owner: string, taskId: unknown, signal?: AbortSignal): Promise<TaskSnapshot> {
    let found = await this.#find(owner, taskId, 'retrieve');
    if (found.entry) {
      await unlessAborted(found.entry.settled, signal);
      return found.entry.snapshot;
    }
    while (!TERMINAL.has(found.snapshot.status)) {
      const { min, max } = RESULT_POLL_MS;
      await pause(Math.min(Math.max(found.snapshot.pollIntervalMs, min), max), signal);
      found = await this.#find(owner, taskId, 'retrieve');
    }
    return found.snapshot;
  }

  /**
   * Answers the task's waiting questions: keys not waiting (never asked, answered already) are
   * ignored, as the extension asks; the task goes back to `working` when none is left. For a
   * task running on another instance the answers travel to it on the bus.
   */
  async update(
    owner: string,
    taskId: unknown,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const found = await this.#find(owner, taskId, 'update');
    if (found.entry) return this.#answer(found.entry, responses);
    if (found.record && !TERMINAL.has(found.snapshot.status))
      await this.#send(found.record.node, {
        k: 'update',
        id: found.snapshot.taskId,
        r: { ...responses },
      });
  }

  /**
   * Cancels the task: its signal aborts, its questions are withdrawn and it is `cancelled` from
   * now on, whatever the work does next. A terminal task stays as it is (cancel is idempotent);
   * so does one that ended on its instance while this cancel was on its way (first end wins).
   */
  async cancel(owner: string, taskId: unknown): Promise<TaskSnapshot> {
    const found = await this.#find(owner, taskId, 'cancel');
    if (TERMINAL.has(found.snapshot.status)) return found.snapshot;
    const end: TaskEnd = { status: 'cancelled', statusMessage: CANCELLED };
    const { entry, record } = found;
    if (entry) {
      this.#finish(entry, end);
      entry.abort.abort(new Error('the task was cancelled'));
      return entry.snapshot;
    }
    return this.#endElsewhere(record as TaskRecord, found.snapshot, end);
  }

  /** Stops every task running here and this instance's beat (the server is closing). */
  close(): void {
    this.#unshare?.();
    this.#unshare = undefined;
    for (const entry of this.#local.values()) {
      clearTimeout(entry.expiry);
      entry.abort.abort(new Error('the server closed'));
      this.#drop(entry);
    }
  }

  /** How many tasks run (or are kept after ending) on this instance, for tests. */
  get size(): number {
    return this.#local.size;
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
    if (TERMINAL.has(entry.snapshot.status) || !this.#local.has(entry.snapshot.taskId)) return;
    if ('result' in outcome) this.#finish(entry, { status: 'completed', result: outcome.result });
    else
      this.#finish(entry, {
        status: 'failed',
        error: outcome.error,
        statusMessage: outcome.error.message,
      });
  }

  #answer(entry: Entry, responses: Readonly<Record<string, unknown>>): void {
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

  async #find(owner: string, taskId: unknown, verb: string): Promise<Found> {
    if (typeof taskId !== 'string' || taskId === '') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Failed to ${verb} task: params.taskId must be a non-empty string`,
      );
    }
    const refuse = (why: string) =>
      new JsonRpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: ${why}`);
    let entry = this.#local.get(taskId);
    // Its expiry timer may be late: past its time-to-live a task is gone, as its record is.
    if (entry && Date.parse(entry.snapshot.createdAt) + entry.snapshot.ttlMs <= this.#now()) {
      this.#expire(taskId);
      entry = undefined;
    }
    // Another caller's task is "not found": its existence is not ours to reveal.
    if (entry) {
      if (!ownsTask(owner, entry.owner)) throw refuse('Task not found');
      // An end another instance wrote whose bus message never came (delivery is at most once).
      if (this.#bus && !TERMINAL.has(entry.snapshot.status)) {
        const record = await this.#records.get(taskId);
        if (typeof record === 'object' && record.terminal)
          this.#adopt(entry, JSON.parse(record.snapshot) as TaskSnapshot);
      }
      return { entry, snapshot: entry.snapshot };
    }
    const record = await this.#records.get(taskId);
    if (record === 'expired') throw refuse('Task has expired');
    if (!record || !ownsTask(owner, record.owner)) throw refuse('Task not found');
    const snapshot = JSON.parse(record.snapshot) as TaskSnapshot;
    if (record.terminal || (await this.#runs(record.node))) return { record, snapshot };
    // Its instance stopped (or this one, which runs it no more, restarted): it will not end.
    const failed = await this.#endElsewhere(record, snapshot, {
      status: 'failed',
      error: { code: ErrorCode.InternalError, message: ORPHANED },
      statusMessage: ORPHANED,
    });
    return { record, snapshot: failed };
  }

  /** Whether `node`, another instance, is alive to run its tasks. */
  async #runs(node: string): Promise<boolean> {
    return node !== this.#node && (await this.#records.alive(node));
  }

  /**
   * Ends a task that does not run here: writes its terminal snapshot (unless it ended first,
   * then that end is the answer), tells the listeners and the instance running it.
   */
  async #endElsewhere(
    record: TaskRecord,
    current: TaskSnapshot,
    end: TaskEnd,
  ): Promise<TaskSnapshot> {
    const snapshot = ended(current, end, this.#now());
    const id = snapshot.taskId;
    if (!(await this.#records.update(id, JSON.stringify(snapshot), true))) {
      const now = await this.#records.get(id);
      return typeof now === 'object' ? (JSON.parse(now.snapshot) as TaskSnapshot) : current;
    }
    this.#emit(record.owner, snapshot);
    await this.#send(record.node, { k: 'end', id, s: snapshot });
    return snapshot;
  }

  async #send(node: string, message: TaskMessage): Promise<void> {
    await this.#bus?.publish(topicOf(node), JSON.stringify(message));
  }

  #received(raw: string): void {
    const message = readTaskMessage(raw);
    const entry = message && this.#local.get(message.id);
    if (!message || !entry) return;
    if (message.k === 'update') this.#answer(entry, message.r);
    else this.#adopt(entry, message.s);
  }

  /** Takes on the end another instance wrote for a task running here: its work stops. */
  #adopt(entry: Entry, snapshot: TaskSnapshot): void {
    entry.snapshot = snapshot;
    for (const question of entry.questions.values())
      question.fail(new Error(`the task is ${snapshot.status}`));
    entry.questions.clear();
    entry.settle();
    entry.abort.abort(new Error(`the task was ${snapshot.status} on another server instance`));
  }

  #change(entry: Entry, status: TaskStatus, statusMessage?: string): void {
    entry.snapshot = withStatus(entry, status, this.#now(), statusMessage);
    this.#emit(entry.owner, entry.snapshot);
    this.#write(entry);
  }

  #finish(entry: Entry, end: TaskEnd): void {
    entry.snapshot = ended(entry.snapshot, end, this.#now());
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
        if (await this.#records.update(id, JSON.stringify(snapshot), terminal)) return;
        const record = await this.#records.get(id);
        if (typeof record === 'object' && record.terminal)
          this.#adopt(entry, JSON.parse(record.snapshot) as TaskSnapshot);
      })
      .catch(() => {
        // The store is unreachable: the next write carries the status; if none comes, this
        // instance's beat stops too and readers report the task failed.
      });
  }

  #expire(taskId: string): void {
    const entry = this.#local.get(taskId);
    if (!entry) return;
    entry.abort.abort(new Error('the task expired'));
    this.#drop(entry);
  }

  #drop(entry: Entry): void {
    for (const question of entry.questions.values()) question.fail(new Error('the task ended'));
    entry.questions.clear();
    entry.settle();
    this.#local.delete(entry.snapshot.taskId);
  }

  #emit(owner: string, snapshot: TaskSnapshot): void {
    for (const listener of this.#listeners) listener(owner, snapshot);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** `pending`, or the signal's reason when it aborts first (the waiter is let go). */
function unlessAborted<T>(pending: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return pending;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}
