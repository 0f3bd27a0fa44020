/**
 * Keeps the events sent on SSE streams so a client that lost a stream can resume it with
 * `Last-Event-ID` (Streamable HTTP "Resumability"). Pluggable: a shared store lets another
 * instance replay; the default keeps the newest events in memory.
 */
export interface EventStore {
  /** Records a frame sent (or meant to be sent) on `streamId`; returns its event id. */
  append(streamId: string, frame: string): string;
  /** The stream an event id belongs to and the frames after it, oldest first. */
  after(eventId: string): { streamId: string; frames: { id: string; frame: string }[] } | undefined;
  /** Forgets a stream (its request is complete and replayed, or its session ended). */
  drop(streamId: string): void;
}

/** The default {@link EventStore}: per stream, in memory, bounded in total. */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, { id: string; frame: string }[]>();
  #count = 0;
  #next = 0;

  constructor(private readonly maxEvents = 10_000) {}

  append(streamId: string, frame: string): string {
    const id = `${streamId}:${this.#next++}`;
    let events = this.#streams.get(streamId);
    if (!events) this.#streams.set(streamId, (events = []));
    events.push({ id, frame });
    if (++this.#count > this.maxEvents) this.#evictOldest();
    return id;
  }

  after(eventId: string): { streamId: string; frames: { id: string; frame: string }[] } | undefined {
    const streamId = eventId.slice(0, eventId.lastIndexOf(':'));
    const events = this.#streams.get(streamId);
    if (!events) return undefined;
    const index = events.findIndex((e) => e.id === eventId);
    // A priming event id is not stored; it means "everything on this stream".
    return { streamId, frames: events.slice(index + 1) };
  }

  drop(streamId: string): void {
    this.#count -= this.#streams.get(streamId)?.length ?? 0;
    this.#streams.delete(streamId);
  }

  #evictOldest(): void {
    const [oldest] = this.#streams.keys();
    const events = this.#streams.get(oldest)!;
    events.shift();
    this.#count--;
    if (events.length === 0) this.#streams.delete(oldest);
  }
}
