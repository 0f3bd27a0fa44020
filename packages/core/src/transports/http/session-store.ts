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
  /**
   * Sessions open at once (default 1000). At the cap the least recently used idle session is
   * closed to make room; only when every session has a stream open is a new one refused (503).
   */
  readonly maxSessions: number;
  /**
   * Sessions one client (its authenticated identity, else its address) may hold (default 100).
   * At the cap its own least recently used idle session is closed to make room; with none idle
   * the new one is refused (429).
   */
  readonly maxSessionsPerClient: number;
  /** Mints session ids (default `crypto.randomUUID()`); see `HttpEndpointOptions.sessionIds`. */
  readonly sessionIds?: () => string;
}

/** Who opens a session (a `Peer` is one): the principal it is bound to, and the client's address. */
export interface SessionOwner {
  /** The authenticated identity; the session then serves only requests with the same one. */
  readonly principal?: string;
  readonly remoteAddress?: string;
}

/**
 * The key a client's sessions are counted under: its identity, else its address (kept apart, so
 * a user named like an address shares nothing with it); none when neither is known.
 */
export function clientOf(owner: SessionOwner): string | undefined {
  if (owner.principal !== undefined) return `id:${owner.principal}`;
  return owner.remoteAddress === undefined ? undefined : `ip:${owner.remoteAddress}`;
}

/** A new session refused: every session that counts against the limit is in use. */
export interface SessionRefusal {
  readonly status: 429 | 503;
  readonly limit: 'maxSessions' | 'maxSessionsPerClient';
  readonly message: string;
  readonly retryAfterS: number;
}

/** Sessions the timer's sweep reads in one turn of the event loop. */
const SWEEP_SLICE = 1_000;

interface Entry<T> {
  readonly session: T;
  readonly principal?: string;
  readonly client?: string;
}

/**
 * The sessions of one endpoint, owned by the framework: ids minted here, bound to their
 * principal, counted per client, idle ones reaped by a timer that never keeps the process alive
 * (or evicted, least recently used first, when a cap is reached), closed ones forgotten.
 */
export class SessionStore<T extends StoredSession> {
  readonly #sessions = new Map<string, Entry<T>>();
  /** Session ids per client key, kept on open and close so no request scans the store. */
  readonly #byClient = new Map<string, Set<string>>();
  #sweeper?: ReturnType<typeof setInterval>;

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Makes room for a session of `owner` (closing idle ones past a cap), or says why there is
   * none. Runs only when a session is opened.
   */
  admit(owner: SessionOwner): SessionRefusal | undefined {
    const { maxSessions, maxSessionsPerClient } = this.limits;
    const client = clientOf(owner);
    const mine = client === undefined ? undefined : this.#byClient.get(client);
    if (mine && mine.size >= maxSessionsPerClient && !this.#evictIdle(mine)) {
      return {
        status: 429,
        limit: 'maxSessionsPerClient',
        message: `Too Many Requests: this client already has ${mine.size} sessions with open streams (maxSessionsPerClient = ${maxSessionsPerClient}); end one with DELETE, or raise maxSessionsPerClient in the HTTP options`,
        retryAfterS: this.#retryAfterS(),
      };
    }
    if (this.#sessions.size >= maxSessions && !this.#evictIdle(this.#sessions.keys())) {
      return {
        status: 503,
        limit: 'maxSessions',
        message: `Service Unavailable: all ${this.#sessions.size} sessions have open streams (maxSessions = ${maxSessions}); retry later, or raise maxSessions in the HTTP options`,
        retryAfterS: this.#retryAfterS(),
      };
    }
    return undefined;
  }

  /**
   * Registers a session under a fresh, unguessable id (call {@link admit} first), or under the
   * id a shared store already knows it by.
   */
  add(owner: SessionOwner, create: (id: string) => T, id: string = newSessionId(this.limits)): T {
    const session = create(id);
    const client = clientOf(owner);
    this.#sessions.set(id, { session, principal: owner.principal, client });
    if (client !== undefined) {
      let ids = this.#byClient.get(client);
      if (!ids) this.#byClient.set(client, (ids = new Set()));
      ids.add(id);
    }
    this.#sweeper ??= setInterval(
      () => this.#sweepInSlices(),
      Math.min(this.limits.idleTimeoutMs, 60_000),
    );
    // Never keep the process alive just to reap sessions (unref exists on Node, not on every runtime).
    (this.#sweeper as { unref?: () => void }).unref?.();
    return session;
  }

  /**
   * The session with this id, if it serves `principal`: a session bound to an identity is, to
   * anyone else, exactly as unknown as one that never existed (no oracle).
   */
  get(id: string, principal: string | undefined): T | undefined {
    const entry = this.#sessions.get(id);
    if (!entry) return undefined;
    if (entry.principal !== undefined && entry.principal !== principal) return undefined;
    entry.session.lastSeen = Date.now();
    return entry.session;
  }

  async remove(id: string): Promise<boolean> {
    const entry = this.#sessions.get(id);
    if (!entry) return false;
    this.#sessions.delete(id);
    const client = entry.client;
    if (client !== undefined) {
      const ids = this.#byClient.get(client);
      ids?.delete(id);
      if (ids?.size === 0) this.#byClient.delete(client);
    }
    await entry.session.close();
    return true;
  }

  /** Ids of the sessions with a stream open (kept alive in a shared store while they stream). */
  *busyIds(): Iterable<string> {
    for (const [id, { session }] of this.#sessions) if (session.busy) yield id;
  }

  /** Closes sessions idle past the limit; returns how many. */
  sweep(now: number): number {
    return this.#reap(this.#sessions.entries(), now, Number.POSITIVE_INFINITY).closed;
  }

  /**
   * The timer's sweep, SWEEP_SLICE sessions at a time with a turn of the event loop between:
   * ten thousand sessions holding streams took one 35 ms stretch to walk at once, and a request
   * arriving then waited for all of it. A sweep still under way when the next is due is left
   * to finish instead.
   */
  #sweepInSlices(): void {
    if (this.#sweeping) return;
    const now = Date.now();
    const entries = this.#sessions.entries();
    const slice = () => {
      if (!this.#reap(entries, now, SWEEP_SLICE).more) {
        this.#sweeping = false;
        return;
      }
      const timer = setTimeout(slice, 0);
      (timer as { unref?: () => void }).unref?.();
    };
    this.#sweeping = true;
    slice();
  }

  /** Closes the idle sessions among the next `max` of `entries`; `more`: some are left unread. */
  #reap(
    entries: Iterator<[string, Entry<T>]>,
    now: number,
    max: number,
  ): { closed: number; more: boolean } {
    let closed = 0;
    // A Map iterator sees deletions made meanwhile; sessions added meanwhile are just fresh.
    for (let n = 0; n < max; n++) {
      const next = entries.next();
      if (next.done) return { closed, more: false };
      const [id, { session }] = next.value;
      if (!session.busy && now - session.lastSeen > this.limits.idleTimeoutMs) {
        void this.remove(id);
        closed++;
      }
    }
    return { closed, more: true };
  }

  #sweeping = false;

  async closeAll(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await Promise.all([...this.#sessions.keys()].map((id) => this.remove(id)));
  }

  /** Closes the least recently used session among `ids` that has no stream open. */
  #evictIdle(ids: Iterable<string>): boolean {
    let oldest: string | undefined;
    let seen = Number.POSITIVE_INFINITY;
    for (const id of ids) {
      const session = this.#sessions.get(id)?.session;
      if (session && !session.busy && session.lastSeen < seen) {
        seen = session.lastSeen;
        oldest = id;
      }
    }
    if (oldest === undefined) return false;
    void this.remove(oldest);
    return true;
  }

  // A session frees up when a stream closes, which may be soon; the sweep runs at least each minute.
  #retryAfterS(): number {
    return Math.max(1, Math.ceil(Math.min(this.limits.idleTimeoutMs, 60_000) / 1000));
  }
}

/** A fresh, unguessable session id: the endpoint's own minting, else a random UUID. */
export function newSessionId(limits: Pick<SessionLimits, 'sessionIds'>): string {
  return limits.sessionIds?.() ?? globalThis.crypto.randomUUID();
}
