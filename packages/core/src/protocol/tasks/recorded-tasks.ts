// Tasks as callers reach them from any instance: through their records, orphans read failed.
import { JsonRpcError } from '../../jsonrpc/index.js';
import type { TaskRecord } from '../../stores/index.js';
import { ErrorCode } from '../error-codes.js';
import type { LocalTasks } from './local-tasks.js';
import { ended, type Entry, type TaskEnd } from './task-entry.js';
import { type TaskMessage, topicOf } from './task-messages.js';
import { ownsTask } from './task-owner.js';
import type { TaskPlace } from './task-place.js';
import { TERMINAL, type TaskSnapshot } from './task-snapshot.js';
import type { TaskListener } from './task-work.js';

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
 * What callers do with tasks they started, wherever the tasks run (see `Tasks`, whose methods
 * these are): a task running here is read and answered in place; one running on another
 * instance is read from its record, and answers and cancels travel to that instance on the bus.
 */
export class RecordedTasks {
  readonly #place: TaskPlace;
  readonly #local: LocalTasks;
  readonly #now: () => number;
  readonly #emit: TaskListener;

  constructor(place: TaskPlace, local: LocalTasks, now: () => number, emit: TaskListener) {
    this.#place = place;
    this.#local = local;
    this.#now = now;
    this.#emit = emit;
  }

  async get(owner: string, taskId: unknown, verb: string): Promise<TaskSnapshot> {
    return (await this.#find(owner, taskId, verb)).snapshot;
  }

  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: TaskSnapshot[]; next?: string }> {
    const page = await this.#place.records.list(owner, cursor, Math.max(1, limit));
    const found = await Promise.all(
      page.ids.map((id) => this.#find(owner, id, 'retrieve').catch(() => undefined)),
    );
    const tasks = found.flatMap((f) => (f ? [f.snapshot] : []));
    return page.next === undefined ? { tasks } : { tasks, next: page.next };
  }

  async settled(owner: string, taskId: unknown, signal?: AbortSignal): Promise<TaskSnapshot> {
    let found = await this.#find(owner, taskId, 'retrieve');
    if (found.entry) {
      await unlessAborted(found.entry.settled, signal);
      await found.entry.writes;
      return found.entry.snapshot;
    }
    while (!TERMINAL.has(found.snapshot.status)) {
      const { min, max } = RESULT_POLL_MS;
      await pause(Math.min(Math.max(found.snapshot.pollIntervalMs, min), max), signal);
      found = await this.#find(owner, taskId, 'retrieve');
    }
    return found.snapshot;
  }

  async update(
    owner: string,
    taskId: unknown,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const found = await this.#find(owner, taskId, 'update');
    if (found.entry) return this.#local.answer(found.entry, responses);
    if (found.record && !TERMINAL.has(found.snapshot.status))
      await this.#send(found.record.node, {
        k: 'update',
        id: found.snapshot.taskId,
        r: { ...responses },
      });
  }

  async cancel(owner: string, taskId: unknown): Promise<TaskSnapshot> {
    const found = await this.#find(owner, taskId, 'cancel');
    if (TERMINAL.has(found.snapshot.status)) return found.snapshot;
    const end: TaskEnd = { status: 'cancelled', statusMessage: CANCELLED };
    const { entry, record } = found;
    if (entry) {
      this.#local.end(entry, end, new Error('the task was cancelled'));
      // Answered once the end is in the record: the owner's place is free when the client hears.
      await entry.writes;
      return entry.snapshot;
    }
    return this.#endElsewhere(record as TaskRecord, found.snapshot, end);
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
    let entry = this.#local.entry(taskId);
    // Its expiry timer may be late: past its time-to-live a task is gone, as its record is.
    if (entry && Date.parse(entry.snapshot.createdAt) + entry.snapshot.ttlMs <= this.#now()) {
      this.#local.expire(taskId);
      entry = undefined;
    }
    // Another caller's task is "not found": its existence is not ours to reveal.
    if (entry) {
      if (!ownsTask(owner, entry.owner)) throw refuse('Task not found');
      // An end another instance wrote whose bus message never came (delivery is at most once).
      if (this.#place.bus && !TERMINAL.has(entry.snapshot.status)) {
        const record = await this.#place.records.get(taskId);
        if (typeof record === 'object' && record.terminal)
          this.#local.adopt(entry, JSON.parse(record.snapshot) as TaskSnapshot);
      }
      // An end told before it is in the record could let the owner's next task be refused.
      if (TERMINAL.has(entry.snapshot.status)) await entry.writes;
      return { entry, snapshot: entry.snapshot };
    }
    const record = await this.#place.records.get(taskId);
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
    return node !== this.#place.node && (await this.#place.records.alive(node));
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
    if (!(await this.#place.records.update(id, JSON.stringify(snapshot), true))) {
      const now = await this.#place.records.get(id);
      return typeof now === 'object' ? (JSON.parse(now.snapshot) as TaskSnapshot) : current;
    }
    this.#emit(record.owner, snapshot);
    await this.#send(record.node, { k: 'end', id, s: snapshot });
    return snapshot;
  }

  async #send(node: string, message: TaskMessage): Promise<void> {
    await this.#place.bus?.publish(topicOf(node), JSON.stringify(message));
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
