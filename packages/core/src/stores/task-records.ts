/**
 * One task as every instance sees it. The snapshot is the task's JSON (status, result, the
 * questions waiting) as the instance running it last wrote it; the store treats it as opaque
 * apart from the `terminal` flag that goes with it.
 */
export interface TaskRecord {
  /** Who the task belongs to; nobody else reads, answers or cancels it. */
  readonly owner: string;
  /** The instance running the task's work (its {@link TaskRecords.beat} keeps it alive). */
  readonly node: string;
  /** The task's snapshot, as JSON. */
  readonly snapshot: string;
  /** True once the task completed, failed or was cancelled: the snapshot no longer changes. */
  readonly terminal: boolean;
}

/** The caps a task store enforces across every instance when a task is created. */
export interface SharedTaskLimits {
  readonly maxTasks: number;
  /** Tasks of one owner not yet terminal: an update that ends a task frees its place at once. */
  readonly maxTasksPerOwner: number;
}

/**
 * Tasks shared by every instance of a server, so any of them answers `tasks/get`, `tasks/list`,
 * `tasks/update` and `tasks/cancel` while the work runs on the instance that started it. Every
 * record expires at the time given when it was created (the task's time-to-live); an expired
 * id is remembered a while longer so a late poll hears "expired" rather than "not found".
 */
export interface TaskRecords {
  /**
   * Keeps a new task until `expiresAt` (epoch ms) unless a cap is reached across the cluster;
   * answers the cap that refused it.
   */
  create(
    id: string,
    record: TaskRecord,
    expiresAt: number,
    limits: SharedTaskLimits,
  ): Promise<'maxTasks' | 'maxTasksPerOwner' | undefined>;
  /**
   * Replaces the task's snapshot. A terminal snapshot is never replaced, which makes the first
   * terminal write win when a cancel on one instance races the work ending on another: false
   * when the task is gone or already terminal (read it to learn how it ended).
   */
  update(id: string, snapshot: string, terminal: boolean): Promise<boolean>;
  /** The task, `'expired'` when its time-to-live ended recently, else undefined. */
  get(id: string): Promise<TaskRecord | 'expired' | undefined>;
  /**
   * A page of `owner`'s live tasks, oldest first: up to `limit` ids after `cursor` (an opaque
   * string this method returned as `next`), and the cursor of the page after, if any. A cursor
   * it did not make may be refused with a `RangeError`.
   */
  list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ ids: string[]; next?: string }>;
  /** Records that instance `node` is alive for `ttlMs` more; it calls this well within that. */
  beat(node: string, ttlMs: number): Promise<void>;
  /** Whether instance `node` beat within its last time-to-live. */
  alive(node: string): Promise<boolean>;
}
