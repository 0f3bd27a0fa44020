// What a task looks like at one moment, era-neutral, and how its work ends.
/** Where a task is in its life (the same five words in 2025-11-25 and the tasks extension). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A JSON-RPC error object, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What a task looks like at one moment, before an era gives it its wire shape (the extension
 * inlines `result`, `error` and `inputRequests` and names durations `ttlMs`/`pollIntervalMs`;
 * 2025-11-25 names them `ttl`/`pollInterval` and serves the result through `tasks/result`).
 */
export interface TaskSnapshot {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** From creation; `null` never happens here: every task expires. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The questions waiting for the client, by key (only while `input_required`). */
  readonly inputRequests?: Readonly<Record<string, { method: string; params: unknown }>>;
  /** The request's own result (`completed`). */
  readonly result?: unknown;
  /** The JSON-RPC error the request ended with (`failed`). */
  readonly error?: TaskError;
}

/** How the work behind a task ended: a result, or the JSON-RPC error the request would have had. */
export type TaskOutcome = { readonly result: unknown } | { readonly error: TaskError };
