import type { EventStore, StoredEvents } from '@mcp-fw/core/http';
import type { Commands } from './scripts.js';

/** Bounds of the {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Events kept per stream, oldest trimmed first (Redis Streams `MAXLEN ~`; default 1,000). */
  readonly maxEventsPerStream?: number;
  /** A stream no event was added to for this long is deleted (default 30 minutes). */
  readonly ttlMs?: number;
}

/**
 * SSE events of every instance's streams on Redis Streams, one Redis stream per SSE stream,
 * each bounded in length and expiring when idle, so a client resumes (`Last-Event-ID`) on any
 * instance. Event ids are minted here (stream, instance, sequence), so sending an event never
 * waits on Redis: writes go out behind, in order, on the instance's one connection.
 */
export class RedisEventStore implements EventStore {
  readonly #max: string;
  readonly #ttl: string;
  #seq = 0;

  constructor(
    private readonly redis: Commands,
    private readonly prefix: string,
    private readonly nodeId: string,
    options: RedisEventStoreOptions = {},
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.#max = String(options.maxEventsPerStream ?? 1_000);
    this.#ttl = String(options.ttlMs ?? 30 * 60_000);
  }

  append(streamId: string, frame: string): string {
    const id = `${streamId}:${this.nodeId}.${this.#seq++}`;
    const key = this.#key(streamId);
    // Not awaited: both commands leave in this order on the one connection; a failure loses the
    // event for resumption only (it was sent live, or the stream is lost anyway).
    this.redis
      .sendCommand(['XADD', key, 'MAXLEN', '~', this.#max, '*', 'i', id, 'f', frame])
      .catch(this.onError);
    this.#last = this.redis.sendCommand(['PEXPIRE', key, this.#ttl]).catch(this.onError);
    return id;
  }

  #last: Promise<unknown> = Promise.resolve();

  /** Resolves once every event appended so far is in Redis (tests, graceful shutdown). */
  async written(): Promise<void> {
    await this.#last;
  }

  async after(eventId: string): Promise<StoredEvents | undefined> {
    const cut = eventId.lastIndexOf(':');
    if (cut <= 0) return undefined;
    const streamId = eventId.slice(0, cut);
    const entries = await this.redis.sendCommand<unknown>([
      'XRANGE',
      this.#key(streamId),
      '-',
      '+',
    ]);
    const frames = parseEntries(entries);
    if (frames.length === 0) return undefined;
    const index = frames.findIndex((e) => e.id === eventId);
    // A priming event id is not stored; it means "everything on this stream".
    return { streamId, frames: frames.slice(index + 1) };
  }

  drop(streamId: string): void {
    this.#last = this.redis.sendCommand(['DEL', this.#key(streamId)]).catch(this.onError);
  }

  #key(streamId: string): string {
    return `${this.prefix}events:${streamId}`;
  }
}

/** XRANGE's reply (RESP2 nested arrays, or RESP3 maps of fields) as `{ id, frame }` pairs. */
function parseEntries(reply: unknown): { id: string; frame: string }[] {
  if (!Array.isArray(reply)) return [];
  const out: { id: string; frame: string }[] = [];
  for (const entry of reply) {
    const fields = Array.isArray(entry) ? entry[1] : undefined;
    let id: unknown;
    let frame: unknown;
    if (Array.isArray(fields)) {
      for (let i = 0; i + 1 < fields.length; i += 2) {
        if (String(fields[i]) === 'i') id = fields[i + 1];
        else if (String(fields[i]) === 'f') frame = fields[i + 1];
      }
    } else if (fields && typeof fields === 'object') {
      id = (fields as Record<string, unknown>).i;
      frame = (fields as Record<string, unknown>).f;
    }
    if (id !== undefined && frame !== undefined) out.push({ id: String(id), frame: String(frame) });
  }
  return out;
}
