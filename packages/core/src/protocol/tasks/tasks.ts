// The tasks of one server, as the eras use them: start, read, answer, cancel, share, close.
import type { MessageBus, TaskRecords } from '../../stores/index.js';
import { LocalTasks } from './local-tasks.js';
import { MemoryTaskRecords } from './memory-task-records.js';
import { TASK_LIMIT_DEFAULTS, type TaskLimits } from './task-limits.js';
import type { TaskPlace } from './task-place.js';
import { RecordedTasks } from './recorded-tasks.js';
import { shareTasks } from './task-sharing.js';
import type { TaskOutcome, TaskSnapshot } from './task-snapshot.js';
import type { TaskListener, TaskRelay, TaskTiming, TaskWork } from './task-work.js';

/**
 * The tasks of one server: each runs its work detached from the request that started it, can
 * stop to ask the client something, and is kept (bounded, owner-bound) until its time-to-live
 * ends. Era-neutral: the eras give snapshots their wire shape.
 *
 * Every task has a record ({@link TaskRecords}: in memory, or the shared store's once
 * {@link share}d) that any instance reads; what cannot leave the process (the work, its abort
 * switch, the questions waiting) stays with the instance running it ({@link LocalTasks}), which
 * writes each status change to the record. Answers and cancels for a task running elsewhere
 * travel on the bus to its instance; a task whose instance stopped is reported failed
 * ({@link RecordedTasks}).
 */
export class Tasks {
  readonly #limits: Required<TaskLimits>;
  readonly #listeners = new Set<TaskListener>();
  readonly #place: TaskPlace;
  readonly #local: LocalTasks;
  readonly #recorded: RecordedTasks;
  #unshare?: () => void;

  constructor(limits: TaskLimits = {}, now: () => number = Date.now, records?: TaskRecords) {
    this.#limits = { ...TASK_LIMIT_DEFAULTS, ...limits };
    this.#place = { records: records ?? new MemoryTaskRecords(now), node: 'local' };
    const emit: TaskListener = (owner, snapshot) => {
      for (const listener of this.#listeners) listener(owner, snapshot);
    };
    this.#local = new LocalTasks(this.#place, this.#limits, now, emit);
    this.#recorded = new RecordedTasks(this.#place, this.#local, now, emit);
  }

  /** The most a tool may ask for as its tasks' time-to-live. */
  get maxTtlMs(): number {
    return this.#limits.maxTtlMs;
  }

  /**
   * Keeps tasks in `records` from now on, shared with the other instances, which reach the
   * tasks running here through `bus` (topic `task:<node>`); beats for `node` until
   * {@link unshare} or {@link close}. Resolves once this instance hears its topic.
   */
  async share(records: TaskRecords, bus: MessageBus, node: string): Promise<void> {
    this.unshare();
    this.#place.records = records;
    this.#place.bus = bus;
    this.#place.node = node;
    this.#unshare = await shareTasks(records, bus, node, this.#local);
  }

  /**
   * Stops this instance's beat and its topic (the server stops serving): the other instances
   * read its unfinished tasks as failed once the beat's time-to-live has passed. The records
   * stay where {@link share} put them.
   */
  unshare(): void {
    this.#unshare?.();
    this.#unshare = undefined;
  }

  /** Calls `listener` on every status change until the returned function is called. */
  listen(listener: TaskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts `work` as a task recorded under `owner` and resolves with its first snapshot
   * (`working`), readable by {@link get} on every instance by then. Refused with a
   * `LimitError` when the server (every instance together) or the owner holds as many
   * tasks as the limits allow.
   */
  start(
    owner: string,
    timing: TaskTiming,
    work: (task: TaskWork) => Promise<TaskOutcome>,
    relay?: TaskRelay,
  ): Promise<TaskSnapshot> {
    return this.#local.start(owner, timing, work, relay);
  }

  /** The task as it is now; -32602 when it does not exist, expired, or belongs to someone else. */
  get(owner: string, taskId: unknown, verb = 'retrieve'): Promise<TaskSnapshot> {
    return this.#recorded.get(owner, taskId, verb);
  }

  /**
   * A page of the tasks `owner` holds (2025-11-25 `tasks/list`), oldest first: up to `limit`
   * after `cursor` (a `next` this returned; a RangeError for anything else).
   */
  list(
    owner: string,
    cursor?: string,
    limit = this.#limits.maxTasksPerOwner,
  ): Promise<{ tasks: TaskSnapshot[]; next?: string }> {
    return this.#recorded.list(owner, cursor, limit);
  }

  /**
   * Resolves when the task is terminal, with its final snapshot (2025-11-25 `tasks/result`),
   * or rejects when `signal` aborts first. A task running elsewhere is read at its poll
   * interval until it ends or expires.
   */
  settled(owner: string, taskId: unknown, signal?: AbortSignal): Promise<TaskSnapshot> {
    return this.#recorded.settled(owner, taskId, signal);
  }

  /**
   * Answers the task's waiting questions: keys not waiting (never asked, answered already) are
   * ignored, as the extension asks; the task goes back to `working` when none is left. For a
   * task running on another instance the answers travel to it on the bus.
   */
  update(
    owner: string,
    taskId: unknown,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    return this.#recorded.update(owner, taskId, responses);
  }

  /**
   * Cancels the task: its signal aborts, its questions are withdrawn and it is `cancelled` from
   * now on, whatever the work does next. A terminal task stays as it is (cancel is idempotent);
   * so does one that ended on its instance while this cancel was on its way (first end wins).
   */
  cancel(owner: string, taskId: unknown): Promise<TaskSnapshot> {
    return this.#recorded.cancel(owner, taskId);
  }

  /** Stops every task running here and this instance's beat (the server is closing). */
  close(): void {
    this.unshare();
    this.#local.close();
  }

  /** How many tasks run (or are kept after ending) on this instance, for tests. */
  get size(): number {
    return this.#local.size;
  }
}

// A service of the server core, added to `ServerCore` from here: it is built on the era contract,
// which therefore cannot name it without an import cycle.
declare module '../server-core.js' {
  interface ServerCore {
    /** Calls running as tasks (owner-bound, bounded, expiring); see `@Tool({ task })`. */
    readonly tasks: Tasks;
  }
}
