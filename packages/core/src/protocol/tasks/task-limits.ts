// The bounds on tasks (`limits.tasks`) and their defaults.
/**
 * Bounds on the tasks clients can start, in `createServer({ limits: { tasks } })`. Every task
 * holds memory (its result, its questions) until it expires, so every one is counted.
 *
 * @example
 * ```ts
 * createServer({ name: 'jobs', version: '1.0.0', providers: [Jobs], limits: { tasks: { maxTasksPerOwner: 10 } } });
 * ```
 */
export interface TaskLimits {
  /**
   * Tasks kept at once, all callers together, until they expire (default 1000); with a shared
   * store, across every instance. Beyond: -32000 naming the limit, HTTP 503 with `Retry-After`.
   */
  readonly maxTasks?: number;
  /**
   * Tasks still working at once for one caller (principal, else session; an unauthenticated
   * 2026-07-28 caller by its address) (default 100); with a shared store, across every
   * instance. A task that completes, fails or is cancelled frees its place at once (it still
   * counts in `maxTasks` until it expires). Beyond: -32000 naming the limit, HTTP 429 with
   * `Retry-After`.
   */
  readonly maxTasksPerOwner?: number;
  /** Questions one task may have waiting for the client at once (default 16). */
  readonly maxInputRequestsPerTask?: number;
  /** The longest time-to-live a tool may give its tasks, in ms (default 24 h). */
  readonly maxTtlMs?: number;
  /**
   * Bytes one task may keep until it expires, its result included (default 1 MiB), in memory
   * and in a shared store, so `maxTasks` tasks stay within `maxTasks × maxTaskBytes`. A task
   * whose result would pass it fails instead, with -32000 naming this limit.
   */
  readonly maxTaskBytes?: number;
}

export const TASK_LIMIT_DEFAULTS: Required<TaskLimits> = {
  maxTasks: 1000,
  maxTasksPerOwner: 100,
  maxInputRequestsPerTask: 16,
  maxTtlMs: 24 * 60 * 60 * 1000,
  maxTaskBytes: 1024 * 1024,
};
