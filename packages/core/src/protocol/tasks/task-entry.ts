// What a task running here holds in memory, and its snapshots after a change or an end.
import type { TaskError, TaskSnapshot, TaskStatus } from './task-snapshot.js';

/** A question waiting in `inputRequests` for the client's answer. */
export interface Question {
  readonly method: string;
  readonly params: unknown;
  readonly answer: (value: unknown) => void;
  readonly fail: (reason: unknown) => void;
}

/**
 * A task running on this instance: its snapshot, its work's abort switch, its questions (what
 * cannot leave the process; the task's record in the store is what every instance reads).
 */
export interface Entry {
  /** The owner it is recorded under (see `taskRecordOwner`). */
  readonly owner: string;
  snapshot: TaskSnapshot;
  readonly abort: AbortController;
  readonly questions: Map<string, Question>;
  readonly usedKeys: Set<string>;
  /** Questions relayed on the session (2025-11-25) and not answered yet. */
  relaying: number;
  readonly expiry: ReturnType<typeof setTimeout>;
  readonly settled: Promise<void>;
  settle(): void;
  /** The writes of its snapshots to the records, one after the other. */
  writes: Promise<void>;
}

/** How a task ended. */
export interface TaskEnd {
  readonly status: TaskStatus;
  readonly result?: unknown;
  readonly error?: TaskError;
  readonly statusMessage?: string;
}

/** The snapshot after a status change: the message kept while the status stays, questions listed. */
export function withStatus(
  entry: Entry,
  status: TaskStatus,
  now: number,
  statusMessage?: string,
): TaskSnapshot {
  const { inputRequests: _old, statusMessage: previous, ...rest } = entry.snapshot;
  const message = statusMessage ?? (status === entry.snapshot.status ? previous : undefined);
  return {
    ...rest,
    status,
    lastUpdatedAt: new Date(now).toISOString(),
    ...(message === undefined ? {} : { statusMessage: message }),
    ...(status === 'input_required'
      ? {
          inputRequests: Object.fromEntries(
            [...entry.questions].map(([key, q]) => [key, { method: q.method, params: q.params }]),
          ),
        }
      : {}),
  };
}

/** The final snapshot: the result or the error, never both, no questions. */
export function ended(snapshot: TaskSnapshot, end: TaskEnd, now: number): TaskSnapshot {
  const { inputRequests: _q, statusMessage: _m, ...rest } = snapshot;
  return {
    ...rest,
    status: end.status,
    lastUpdatedAt: new Date(now).toISOString(),
    ...(end.statusMessage === undefined ? {} : { statusMessage: end.statusMessage }),
    ...(end.status === 'completed' ? { result: end.result } : {}),
    ...(end.status === 'failed' ? { error: end.error } : {}),
  };
}
