import type { SessionStateBounds, SessionStates } from '../../stores/index.js';

interface Held {
  readonly values: Map<string, string>;
  bytes: number;
  expiresAt: number;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of one entry: its key and its JSON text. */
export function entryBytes(key: string, json: string): number {
  return encoder.encode(key).length + encoder.encode(json).length;
}

/**
 * `ctx.state` in this process's memory: per session, bounded by keys and bytes, dropped after
 * the idle timeout, and at most `maxSessions` sessions (the least recently used go first, so a
 * flood of new callers cannot grow it without bound).
 */
export class MemorySessionStates implements SessionStates {
  // Insertion order is recency: a session is moved to the end whenever it is used.
  readonly #sessions = new Map<string, Held>();

  constructor(private readonly maxSessions: number) {}

  #use(session: string, bounds: SessionStateBounds, create: boolean): Held | undefined {
    const now = Date.now();
    let held = this.#sessions.get(session);
    if (held && held.expiresAt <= now) {
      this.#sessions.delete(session);
      held = undefined;
    }
    if (!held) {
      if (!create) return undefined;
      held = { values: new Map(), bytes: 0, expiresAt: 0 };
      for (const [oldest] of this.#sessions) {
        if (this.#sessions.size < this.maxSessions) break;
        this.#sessions.delete(oldest);
      }
    } else this.#sessions.delete(session);
    held.expiresAt = now + bounds.idleTimeoutMs;
    this.#sessions.set(session, held);
    return held;
  }

  async get(session: string, key: string, bounds: SessionStateBounds) {
    return this.#use(session, bounds, false)?.values.get(key);
  }

  async set(session: string, key: string, json: string, bounds: SessionStateBounds) {
    const held = this.#use(session, bounds, true)!;
    const before = held.values.get(key);
    if (before === undefined && held.values.size >= bounds.maxKeys) return 'maxKeys' as const;
    const bytes =
      held.bytes - (before === undefined ? 0 : entryBytes(key, before)) + entryBytes(key, json);
    if (bytes > bounds.maxBytes) return 'maxBytes' as const;
    held.values.set(key, json);
    held.bytes = bytes;
    return undefined;
  }

  async delete(session: string, key: string, bounds: SessionStateBounds) {
    const held = this.#use(session, bounds, false);
    const before = held?.values.get(key);
    if (!held || before === undefined) return false;
    held.values.delete(key);
    held.bytes -= entryBytes(key, before);
    return true;
  }

  async clear(session: string) {
    this.#sessions.delete(session);
  }
}
