import type { WireError } from '../../jsonrpc/index.js';
import type { EventStore } from './event-store.js';
import type { EventStreamSink, HeaderMap, HttpResponder } from './exchange.js';
import { primingEvent, SSE_HEADERS, sseEvent } from './sse.js';
import { headerMap } from './header-map.js';

/**
 * How long the events of a stream that ended stay stored. A client leaving just as the answer is
 * written cannot be told apart from one that read it (the write to a socket its peer has just
 * closed succeeds locally), so such a client may still resume the stream for a while; the
 * store's own bounds cap what this keeps.
 */
const ENDED_STREAM_KEPT_MS = 10_000;

/** `auto`: JSON unless something is sent before the answer; `sse` / `json`: always that. */
export type ResponseMode = 'auto' | 'sse' | 'json';

export interface StreamSettings {
  readonly mode: ResponseMode;
  readonly store?: EventStore;
  /** The session the stream belongs to, so the store can bound what each session keeps. */
  readonly sessionId?: string;
  /** Extra headers of a JSON error answer (`Retry-After` of a refusal at a limit). */
  readonly headersOf?: (error: WireError) => HeaderMap | undefined;
  /** Send the 2025-11-25 priming event (and `retry`) when a stream opens. */
  readonly priming: boolean;
  readonly retryMs?: number;
  /** The POST carried a request, so it is never answered 202 (which means "notification accepted"). */
  readonly expectsAnswer?: boolean;
  /** HTTP status of a JSON error answer (2026-07-28 errors map to 400/404); 200 when absent. */
  readonly statusOf?: (error: WireError) => number;
}

/**
 * The response to one POST. Frames the engine routes to it arrive here: the answer alone goes
 * out as a JSON body; anything sent before it (progress, logs, a question to the client)
 * turns the response into an SSE stream that ends with the answer. A stream the client lost
 * keeps recording into the event store, so a `Last-Event-ID` GET can pick it up.
 */
export class RequestStream {
  #responder?: HttpResponder;
  #sink?: EventStreamSink;
  #onLost?: () => void;
  #state: 'pending' | 'sse' | 'done' = 'pending';

  constructor(
    readonly streamId: string,
    responder: HttpResponder,
    private readonly headers: HeaderMap,
    private readonly settings: StreamSettings,
  ) {
    this.#responder = responder;
    if (settings.mode === 'sse') this.#open();
  }

  /** Called if the client drops the SSE stream before its end (its events are then kept). */
  onLost(listener: () => void): void {
    this.#onLost = listener;
  }

  get pending(): boolean {
    return this.#state === 'pending';
  }

  get done(): boolean {
    return this.#state === 'done';
  }

  /** One frame for this POST; `error` is the JSON-RPC error of a final error answer. */
  deliver(frame: string, final: boolean, error?: WireError): void {
    if (this.#state === 'done') return;
    if (this.#state === 'pending') {
      if (final && this.settings.mode !== 'sse') {
        this.#state = 'done';
        const status = (error && this.settings.statusOf?.(error)) ?? 200;
        const extra = status === 200 || !error ? undefined : this.settings.headersOf?.(error);
        this.#responder!.send(
          status,
          headerMap(this.headers, extra, 'content-type', 'application/json'),
          frame,
        );
        this.#responder = undefined;
        return;
      }
      // JSON-only responses cannot carry messages sent meanwhile (SDK v2 drops them too).
      if (this.settings.mode === 'json') return;
      this.#open();
    }
    this.#write(frame);
    if (final) this.#finish();
  }

  /**
   * Everything for this POST was sent. With nothing sent at all it was only notifications (202),
   * or its request was cancelled: the server must not answer a cancelled request (cancellation,
   * "Behavior Requirements") and must answer a request POST with JSON or SSE (transports,
   * "Sending Messages"), so it gets an SSE stream that ends without events. No priming event:
   * there is nothing to resume.
   */
  settle(): void {
    if (this.#state === 'pending') {
      this.#state = 'done';
      if (this.settings.expectsAnswer)
        this.#responder!.stream(headerMap(this.headers, SSE_HEADERS)).end();
      else this.#responder!.send(202, this.headers);
      this.#responder = undefined;
    } else if (this.#state === 'sse') {
      this.#finish();
    }
  }

  /** A resumed stream (GET with Last-Event-ID) takes over from a lost one. */
  attach(sink: EventStreamSink): void {
    this.#sink = sink;
  }

  close(): void {
    if (this.#state === 'pending') this.#responder?.send(503, this.headers);
    this.#state = 'done';
    this.#sink?.end();
  }

  #open(): void {
    this.#state = 'sse';
    this.#sink = this.#responder!.stream(headerMap(this.headers, SSE_HEADERS));
    this.#sink.onClose(() => {
      if (this.#state !== 'done') this.#onLost?.();
    });
    this.#responder = undefined;
    const { store, priming, retryMs } = this.settings;
    if (store && priming) this.#sink.write(primingEvent(`${this.streamId}:p`, retryMs));
  }

  /** The id of the last event written (stored), if any. */
  lastEventId?: string;

  #write(frame: string): void {
    const id = this.settings.store?.append(this.streamId, frame, this.settings.sessionId);
    this.lastEventId = id;
    if (this.#sink && !this.#sink.closed) this.#sink.write(sseEvent(frame, id));
  }

  #finish(): void {
    this.#state = 'done';
    if (this.#sink && !this.#sink.closed) {
      this.#sink.end();
      const { store } = this.settings;
      if (store) {
        const timer = setTimeout(() => store.drop(this.streamId), ENDED_STREAM_KEPT_MS);
        (timer as { unref?: () => void }).unref?.();
      }
    }
  }
}
