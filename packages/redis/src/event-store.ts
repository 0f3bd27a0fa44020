import type { EventStore, StoredEvents } from '@mcp-fw/core/http';
import { type Commands, Script } from './scripts.js';

/** Bounds of the {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Events kept per stream, oldest trimmed first (default 1,000). */
  readonly maxEventsPerStream?: number;
  /**
   * Bytes of events kept per stream, oldest trimmed first (default 8 MiB); an event larger than
   * this alone is sent but not kept for resumption.
   */
  readonly maxBytesPerStream?: number;
  /** A stream no event was added to for this long is deleted (default 30 minutes). */
  readonly ttlMs?: number;
}

/**
 * Adds an event and trims the oldest until the stream is within its bounds in number and bytes
 * (its byte count kept beside it); both keys expire when the stream is idle.
 * KEYS: stream, its byte count. ARGV: event id, frame, most events, most bytes, idle ms.
 */
const APPEND = new Script(`
local size, maxEvents, maxBytes = #ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if size > maxBytes then return 0 end
redis.call('XADD', KEYS[1], '*', 'i', ARGV[1], 'f', ARGV[2])
local bytes = redis.call('INCRBY', KEYS[2], size)
local count = redis.call('XLEN', KEYS[1])
while count > maxEvents or bytes > maxBytes do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if not oldest then break end
  local fields, gone = oldest[2], 0
  for i = 1, #fields, 2 do
    if fields[i] == 'f' then gone = #fields[i + 1] end
  end
  redis.call('XDEL', KEYS[1], oldest[1])
  bytes = redis.call('INCRBY', KEYS[2], -gone)
  count = count - 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
`);

/**
 * SSE events of every instance's streams on Redis Streams, one Redis stream per SSE stream,
 * each bounded in number and bytes of events and expiring when idle, so a client resumes
 * (`Last-Event-ID`) on any instance. Event ids are minted here (stream, instance, sequence), so sending an event never
 * waits on Redis: writes go out behind, in order, on the instance's one connection.
 */
export class RedisEventStore implements EventStore {
  readonly #max: string;
  readonly #maxBytes: string;
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
    this.#maxBytes = String(options.maxBytesPerStream ?? 8 * 1024 * 1024);
    this.#ttl = String(options.ttlMs ?? 30 * 60_000);
  }

  append(streamId: string, frame: string): string {
    const id = `${streamId}:${this.nodeId}.${this.#seq++}`;
    const key = this.#key(streamId);
    // Not awaited: appends leave in order on the one connection (EVAL, not EVALSHA, whose retry
    // after a NOSCRIPT could pass a later append); a failure loses the event for resumption only
    // (it was sent live, or the stream is lost anyway).
    this.#last = this.redis
      .sendCommand([
        'EVAL',
        APPEND.source,
        '2',
        key,
        `${key}:bytes`,
        id,
        frame,
        this.#max,
        this.#maxBytes,
        this.#ttl,
      ])
      .catch(this.onError);
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
    const key = this.#key(streamId);
    this.#last = this.redis.sendCommand(['DEL', key, `${key}:bytes`]).catch(this.onError);
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
