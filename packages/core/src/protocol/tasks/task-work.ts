// What a task's work is handed, its timing, its relay and its listeners.
import type { TaskSnapshot } from './task-snapshot.js';

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
