// Task records kept in one process: the default store behind `Tasks`.
import type { SharedTaskLimits, TaskRecord, TaskRecords } from '../../stores/index.js';

interface Held {
  record: TaskRecord;
  readonly expiresAt: number;
  /** Creation order, the list cursor. */
  readonly seq: number;
}

/**
 * The task records of one instance (the default): the same contract as a shared store's, so a
 * server alone and a cluster run the same task code. Expired records are dropped when a cap,
 * a read or a list meets them; their ids are remembered (bounded, oldest forgotten first).
 */
export class MemoryTaskRecords implements TaskRecords {
  readonly #held = new Map<string, Held>();
  readonly #expired = new Set<string>();
  readonly #beats = new Map<string, number>();
  readonly #now: () => number;
  #seq = 0;
  #maxExpired = 1000;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async create(
    id: string,
    record: TaskRecord,
    expiresAt: number,
    limits: SharedTaskLimits,
  ): Promise<'maxTasks' | 'maxTasksPerOwner' | undefined> {
    this.#maxExpired = limits.maxTasks;
    this.#sweep();
    let owned = 0;
    // A task that ended no longer counts against its owner (its record stays until it expires).
    for (const held of this.#held.values())
      if (held.record.owner === record.owner && !held.record.terminal) owned++;
    if (owned >= limits.maxTasksPerOwner) return 'maxTasksPerOwner';
    if (this.#held.size >= limits.maxTasks) return 'maxTasks';
    this.#held.set(id, { record, expiresAt, seq: ++this.#seq });
    return undefined;
  }

  async update(id: string, snapshot: string, terminal: boolean): Promise<boolean> {
    const held = this.#live(id);
    if (!held || held.record.terminal) return false;
    held.record = { ...held.record, snapshot, terminal };
    return true;
  }

  async get(id: string): Promise<TaskRecord | 'expired' | undefined> {
    const held = this.#live(id);
    if (held) return held.record;
    return this.#expired.has(id) ? 'expired' : undefined;
  }

  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ ids: string[]; next?: string }> {
    const after = cursor === undefined ? 0 : /^\d{1,15}$/.test(cursor) ? Number(cursor) : -1;
    if (after < 0) throw new RangeError('unknown task list cursor');
    this.#sweep();
    const ids: string[] = [];
    for (const [id, held] of this.#held) {
      if (held.seq <= after || held.record.owner !== owner) continue;
      if (ids.length === limit) {
        const last = this.#held.get(ids[ids.length - 1] as string) as Held;
        return { ids, next: String(last.seq) };
      }
      ids.push(id);
    }
    return { ids };
  }

  async beat(node: string, ttlMs: number): Promise<void> {
    this.#beats.set(node, this.#now() + ttlMs);
  }

  async alive(node: string): Promise<boolean> {
    return (this.#beats.get(node) ?? 0) > this.#now();
  }

  #live(id: string): Held | undefined {
    const held = this.#held.get(id);
    if (held && held.expiresAt <= this.#now()) {
      this.#forget(id);
      return undefined;
    }
    return held;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, held] of this.#held) if (held.expiresAt <= now) this.#forget(id);
  }

  #forget(id: string): void {
    this.#held.delete(id);
    this.#expired.add(id);
    if (this.#expired.size > this.#maxExpired) {
      const oldest = this.#expired.values().next().value;
      if (oldest !== undefined) this.#expired.delete(oldest);
    }
  }
}
