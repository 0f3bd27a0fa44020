/** What the store needs of a session to expire and close it. */
export interface StoredSession {
  lastSeen: number;
  /** Open streams keep a session alive whatever its idle time. */
  readonly busy: boolean;
  close(): Promise<void>;
}

export interface SessionLimits {
  /** Sessions idle longer than this are closed (default 30 minutes). */
  readonly idleTimeoutMs: number;
  /** New sessions beyond this many are refused; existing ones keep working (default 1000). */
  readonly maxSessions: number;
}

/**
 * The sessions of one endpoint, owned by the framework: ids minted here, idle ones reaped by a
 * timer that never keeps the process alive, closed ones forgotten so their memory is freed.
 */
export class SessionStore<T extends StoredSession> {
  readonly #sessions = new Map<string, T>();
  #sweeper?: ReturnType<typeof setInterval>;

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.#sessions.size;
  }

  get full(): boolean {
    return this.#sessions.size >= this.limits.maxSessions;
  }

  /** Registers a session under a fresh, unguessable id. */
  add(create: (id: string) => T): T {
    const id = globalThis.crypto.randomUUID();
    const session = create(id);
    this.#sessions.set(id, session);
    this.#sweeper ??= setInterval(() => this.sweep(Date.now()), Math.min(this.limits.idleTimeoutMs, 60_000));
    // Never keep the process alive just to reap sessions (unref exists on Node, not on every runtime).
    (this.#sweeper as { unref?: () => void }).unref?.();
    return session;
  }

  get(id: string): T | undefined {
    const session = this.#sessions.get(id);
    if (session) session.lastSeen = Date.now();
    return session;
  }

  async remove(id: string): Promise<boolean> {
    const session = this.#sessions.get(id);
    if (!session) return false;
    this.#sessions.delete(id);
    await session.close();
    return true;
  }

  /** Closes sessions idle past the limit; returns how many. */
  sweep(now: number): number {
    let closed = 0;
    for (const [id, session] of this.#sessions) {
      if (!session.busy && now - session.lastSeen > this.limits.idleTimeoutMs) {
        void this.remove(id);
        closed++;
      }
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await Promise.all([...this.#sessions.keys()].map((id) => this.remove(id)));
  }
}
