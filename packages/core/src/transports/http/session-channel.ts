import type { Channel, ChannelSink, FrameRoute, Peer } from '../../jsonrpc/index.js';
import type { EventStore } from './event-store.js';
import type { EventStreamSink } from './exchange.js';
import { RequestStream } from './request-stream.js';
import { sseEvent } from './sse.js';
import type { TailFrame } from './stream-tail.js';

/** The origin of replayed frames: their answers go nowhere. */
const REPLAYED = Symbol('replayed');

/**
 * The channel of one Streamable HTTP session. Inbound frames come from POSTs, each with its
 * {@link RequestStream} as origin; outbound frames go to the stream of the request they belong
 * to, and unsolicited ones (list changes, resource updates) to the standalone GET stream.
 */
export class SessionChannel implements Channel {
  readonly remote = true;
  #sink?: ChannelSink;
  #standalone?: EventStreamSink;
  readonly #streams = new Set<RequestStream>();
  /** Streams the client lost before their end: their events stay stored for a resume. */
  readonly #resumable = new Set<string>();

  /**
   * @param shared The session is shared with other instances, each producing the same
   * unsolicited frames: only the instance that holds the standalone stream, or held it last,
   * sends and stores them (the latter for a client that resumes it anywhere).
   */
  constructor(
    readonly id: string,
    private readonly store: EventStore | undefined,
    private readonly shared = false,
  ) {
    this.firstOutboundId = shared ? Math.floor(Math.random() * 2 ** 52) : undefined;
  }

  /**
   * A shared session is served by several instances at once, each asking the client its own
   * questions: their request ids must not meet, so each copy starts at a random point.
   */
  readonly firstOutboundId: number | undefined;

  start(sink: ChannelSink): void {
    this.#sink = sink;
  }

  /** Hands one POSTed message to the engine, answered on `stream`. */
  post(
    text: string,
    parsed: unknown,
    stream: RequestStream,
    peer: Peer,
    onAbort: (listener: () => void) => void,
    resumable = true,
  ): void {
    this.#streams.add(stream);
    if (resumable) stream.onLost(() => this.#resumable.add(stream.streamId));
    // A client that leaves before any answer started cannot resume: its request is cancelled.
    // Without resumability (2026-07-28) closing the stream is the cancel, at any point.
    onAbort(() => (stream.pending || !resumable) && this.#sink?.abandoned(stream));
    this.#sink?.frame(text, stream, peer, { value: parsed });
  }

  /**
   * Feeds a message the client sent to another instance (or sent earlier, replayed to set this
   * instance's connection up); whatever the engine answers to it is dropped.
   */
  replay(text: string, peer: Peer): void {
    this.#sink?.frame(text, REPLAYED, peer);
  }

  send(frame: string, route?: FrameRoute): void {
    const origin = route?.origin;
    if (origin === REPLAYED) return;
    if (origin instanceof RequestStream) {
      // After its answer a request has no stream; late messages for it are dropped.
      const open = !origin.done;
      origin.deliver(frame, route!.final, route!.error);
      // An event of a shared session's stream (SSE, stored) is also published: if the client
      // loses the stream, another instance resuming it relays what follows. Published after it
      // was stored, on the same connection, so a resume that subscribes and then reads the log
      // misses nothing.
      if (open && this.#tail && origin.lastEventId !== undefined)
        this.#tail(origin.streamId, {
          i: origin.lastEventId,
          f: frame,
          e: route!.final || undefined,
        });
      if (origin.done) this.#streams.delete(origin);
      return;
    }
    const open = this.#standalone !== undefined && !this.#standalone.closed;
    if (this.shared && !open) {
      if (!this.#keeper) {
        // Every copy produces the server-wide notifications, but a request to the client (a
        // question of a task running here, whose own request has ended) only this one: it goes
        // to the instance holding the stream.
        if (this.#forward && isRequest(frame)) this.#forward(frame);
        return;
      }
      // The client lost the stream here: keep the event only if no other instance has taken the
      // stream over since (asked of the store, so a takeover is never raced by the bus).
      const check = this.#stillKeeper;
      if (check) {
        void check().then(
          (mine) => {
            if (mine) this.store?.append(this.standaloneId, frame, this.id);
            else this.#keeper = false;
          },
          () => undefined,
        );
        return;
      }
    }
    const id = this.store?.append(this.standaloneId, frame, this.id);
    if (open) this.#standalone!.write(sseEvent(frame, id));
  }

  settle(origin: unknown): void {
    if (origin instanceof RequestStream) {
      origin.settle();
      this.#streams.delete(origin);
    }
  }

  get standaloneId(): string {
    return `${this.id}_get`;
  }

  /** Streams are open: the session is in use whatever its idle time. */
  get busy(): boolean {
    return this.#streams.size > 0 || this.hasStandalone;
  }

  get hasStandalone(): boolean {
    return this.#standalone !== undefined && !this.#standalone.closed;
  }

  openStandalone(sink: EventStreamSink): void {
    this.#standalone = sink;
    this.#keeper = true;
  }

  #tail?: (streamId: string, frame: TailFrame) => void;
  #stillKeeper?: () => Promise<boolean>;

  /** How a shared session's copy learns whether it still keeps the standalone stream's events. */
  keepIf(check: () => Promise<boolean>): void {
    this.#stillKeeper = check;
  }

  /** Where frames of lost request streams go for a resume on another instance (shared sessions). */
  tailLost(publish: (streamId: string, frame: TailFrame) => void): void {
    this.#tail = publish;
  }

  /** This instance holds (or held last) the standalone stream, so it keeps its events. */
  #keeper = false;

  #forward?: (frame: string) => void;

  /**
   * How a shared session's copy passes on a request for the client that it alone sends and
   * cannot deliver, not holding the standalone stream: to the instance that does.
   */
  forwardTo(publish: (frame: string) => void): void {
    this.#forward = publish;
  }

  /** A request another instance's copy could not deliver: sent here if this one holds the stream. */
  forwarded(frame: string): void {
    if (this.hasStandalone || this.#keeper) this.send(frame);
  }

  /** Another instance took the standalone stream over: it keeps the events from now on. */
  handOver(): void {
    this.#keeper = false;
    if (this.#standalone && !this.#standalone.closed) this.#standalone.end();
  }

  /** Finds the open request stream a resumed GET continues. */
  stream(streamId: string): RequestStream | undefined {
    for (const s of this.#streams) if (s.streamId === streamId) return s;
    return undefined;
  }

  /** The client left (DELETE, expiry): end every stream; the engine is closed by the owner. */
  async close(): Promise<void> {
    for (const stream of this.#streams) stream.close();
    this.#streams.clear();
    this.#standalone?.end();
    this.#sink?.ended();
    // A shared session's logs outlive this instance's copy of it; the store expires them.
    if (this.shared) return;
    for (const id of this.#resumable) this.store?.drop(id);
    this.store?.drop(this.standaloneId);
  }
}

/** Whether `frame` is a JSON-RPC request (method and id), rather than a notification or answer. */
function isRequest(frame: string): boolean {
  try {
    const message = JSON.parse(frame) as { method?: unknown; id?: unknown };
    return typeof message.method === 'string' && message.id !== undefined;
  } catch {
    return false;
  }
}
