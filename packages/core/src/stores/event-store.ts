/**
 * Keeps the events sent on SSE streams so a client that lost a stream can resume it with
 * `Last-Event-ID` (Streamable HTTP "Resumability"). Pluggable: a shared store (e.g.
 * `@mcp-fw/redis`) lets another instance replay; the default keeps the newest events in memory.
 *
 * `append` answers the event id at once, so writing an SSE event never waits on the store: a
 * shared store mints the id itself and writes behind, in order. Only reading back (`after`, on
 * a resume) may wait.
 */
export interface EventStore {
  /**
   * Records a frame sent (or meant to be sent) on `streamId` of session `sessionId`; returns its
   * event id. The session lets a store bound what each session keeps.
   */
  append(streamId: string, frame: string, sessionId?: string): string;
  /** The stream an event id belongs to and the frames after it, oldest first. */
  after(eventId: string): StoredEvents | undefined | Promise<StoredEvents | undefined>;
  /** Forgets a stream (its request is complete and replayed, or its session ended). */
  drop(streamId: string): void;
}

/** What {@link EventStore.after} finds: the stream of an event id and what followed it. */
export interface StoredEvents {
  readonly streamId: string;
  readonly frames: { id: string; frame: string }[];
}
