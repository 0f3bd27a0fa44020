import type { EventStore } from '../../stores/event-store.js';

export type { EventStore } from '../../stores/event-store.js';

/** Bounds of the {@link MemoryEventStore}; past any of them the oldest events are forgotten. */
export interface MemoryEventStoreOptions {
  /** Events kept in all (default 10,000). */
  readonly maxEvents?: number;
  /** Size of the events kept in all, in UTF-16 code units of their JSON (about bytes; default 64 Mi). */
  readonly maxBytes?: number;
  /**
   * Events kept per session (default 1,000): past it the session's own oldest go, so one busy
   * session cannot push every other session's events out.
   */
  readonly maxEventsPerSession?: number;
}

interface StreamLog {
  readonly events: { id: string; frame: string }[];
  readonly session?: string;
}

interface SessionLog {
  count: number;
  /** The session's streams that hold events, oldest first. */
  readonly streams: Set<string>;
}

/**
 * The default {@link EventStore}: per stream, in memory, bounded in total (events and size) and
 * per session.
 *
 * @example
 * ```ts
 * createHttpHandler(server, { eventStore: new MemoryEventStore({ maxEventsPerSession: 200 }) });
 * ```
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, StreamLog>();
  readonly #sessions = new Map<string, SessionLog>();
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #maxPerSession: number;
  #count = 0;
  #bytes = 0;
  #next = 0;

  /** `options` may also be a number: the total event cap, as in earlier versions. */
  constructor(options: number | MemoryEventStoreOptions = {}) {
    const o = typeof options === 'number' ? { maxEvents: options } : options;
    this.#maxEvents = o.maxEvents ?? 10_000;
    this.#maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
    this.#maxPerSession = o.maxEventsPerSession ?? 1_000;
  }

  append(streamId: string, frame: string, sessionId?: string): string {
    const id = `${streamId}:${this.#next++}`;
    let log = this.#streams.get(streamId);
    if (!log) this.#streams.set(streamId, (log = { events: [], session: sessionId }));
    log.events.push({ id, frame });
    this.#count++;
    this.#bytes += frame.length;
    if (log.session !== undefined) {
      let session = this.#sessions.get(log.session);
      if (!session) this.#sessions.set(log.session, (session = { count: 0, streams: new Set() }));
      session.streams.add(streamId);
      session.count++;
      while (session.count > this.#maxPerSession)
        this.#shift(session.streams.values().next().value!);
    }
    while (this.#count > 0 && (this.#count > this.#maxEvents || this.#bytes > this.#maxBytes)) {
      this.#shift(this.#streams.keys().next().value!);
    }
    return id;
  }

  after(
    eventId: string,
  ): { streamId: string; frames: { id: string; frame: string }[] } | undefined {
    const streamId = eventId.slice(0, eventId.lastIndexOf(':'));
    const log = this.#streams.get(streamId);
    if (!log) return undefined;
    const index = log.events.findIndex((e) => e.id === eventId);
    // A priming event id is not stored; it means "everything on this stream".
    return { streamId, frames: log.events.slice(index + 1) };
  }

  drop(streamId: string): void {
    const log = this.#streams.get(streamId);
    if (!log) return;
    for (const { frame } of log.events) this.#bytes -= frame.length;
    this.#count -= log.events.length;
    this.#streams.delete(streamId);
    this.#forget(log, streamId, log.events.length);
  }

  /** Events and size kept now (tests and metrics). */
  get usage(): { events: number; bytes: number; sessions: number } {
    return { events: this.#count, bytes: this.#bytes, sessions: this.#sessions.size };
  }

  /** Forgets the oldest event of a stream (and the stream, once empty). */
  #shift(streamId: string): void {
    const log = this.#streams.get(streamId)!;
    const event = log.events.shift()!;
    this.#count--;
    this.#bytes -= event.frame.length;
    const empty = log.events.length === 0;
    if (empty) this.#streams.delete(streamId);
    this.#forget(log, empty ? streamId : undefined, 1);
  }

  /** Takes `events` off the log's session count; `gone` names a stream that holds none any more. */
  #forget(log: StreamLog, gone: string | undefined, events: number): void {
    if (log.session === undefined) return;
    const session = this.#sessions.get(log.session);
    if (!session) return;
    session.count -= events;
    if (gone !== undefined) session.streams.delete(gone);
    if (session.streams.size === 0) this.#sessions.delete(log.session);
  }
}
