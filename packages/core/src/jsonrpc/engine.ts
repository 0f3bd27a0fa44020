import type { Channel, FrameRoute, Peer } from './channel.js';
import { JsonRpcCode } from './codes.js';
import { RawJson } from './error.js';
import { InboundRequest } from './inbound-request.js';
import { InFlight, type InFlightEntry } from './in-flight.js';
import {
  errorFrame,
  isValidId,
  parseFrame,
  resultFrame,
  type JsonRpcId,
  type WireError,
} from './messages.js';
import { OutboundRequests } from './outbound-requests.js';

/** What the layer above the engine provides. The engine itself knows no method names. */
export interface EngineHandlers {
  /** Serves a request; returns (or resolves to) the result, or throws. */
  request(request: InboundRequest): unknown;
  /** Called for each incoming notification. */
  notification(method: string, params: unknown): void;
  /** The one mapping from anything thrown to a JSON-RPC error (and the place that logs it). */
  mapError(error: unknown, request?: InboundRequest): WireError;
  /**
   * Turns a request's value into the result sent, just before serialisation (a protocol layer
   * adds its result envelope here; a `.then` per call would cost a promise on the hot path).
   */
  encodeResult?(request: InboundRequest, value: unknown): unknown;
  /**
   * A request's value could not be serialised (JSON.stringify threw: a BigInt, a cycle). Returns
   * the result to send instead, or throws what to answer with an error. Called only after the
   * failure, so results that serialise pay nothing for it.
   */
  unencodable?(request: InboundRequest, value: unknown, error: unknown): unknown;
  /**
   * Parses one inbound frame instead of {@link parseFrame}: it must return what `parseFrame`
   * returns for the same text, or throw what it throws (a protocol layer may reuse work that
   * repeats from frame to frame).
   */
  parseFrame?(text: string): unknown;
  /** Whether a JSON array of messages is accepted right now. */
  acceptBatch(): boolean;
  /**
   * An outbound request was given up (timeout or abort): the peer may be told to stop. On a
   * timeout `reason` is `'timeout'` and `error` what the request rejected with.
   */
  outboundAbandoned?(id: JsonRpcId, reason: unknown, error?: unknown): void;
  /**
   * What an outbound request that timed out rejects with (default: a `JsonRpcError` with
   * `REQUEST_TIMEOUT_CODE`, "Request timed out after N ms"); built only when one does, from
   * the request as it was sent.
   */
  timeoutError?(method: string, params: unknown, timeoutMs: number): unknown;
}

/** Something that says once when it is aborted (an `InboundRequest`), without an `AbortSignal`. */
export interface Abortable {
  /** Calls `listener` once, when (or at once if) this is aborted. */
  onAbort(listener: (reason: unknown) => void): void;
}

export interface OutboundOptions {
  /** Overrides the engine's `outboundTimeoutMs` for this request (`Infinity`: no timeout). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Gives the request up when this is aborted, as `signal` does: for a request sent on behalf
   * of an inbound one (a proxy's), whose abort needs no signal built.
   */
  abortWith?: Abortable;
  /** The inbound request this one is sent on behalf of (it travels on that request's stream). */
  relatedTo?: InboundRequest;
  /**
   * Told the request's id just before it is sent: for a caller that must recognise what the
   * peer tags with it (a 2026-07-28 listen stream's `subscriptionId`).
   */
  onId?: (id: JsonRpcId) => void;
}

/** Options of an {@link Engine}. */
export interface EngineOptions {
  /**
   * How long a request sent to the peer waits for its answer before it is rejected with
   * `REQUEST_TIMEOUT_CODE` (default 60,000 ms; `Infinity`: as long as it takes).
   */
  outboundTimeoutMs?: number;
}

type Reply = string | undefined | Promise<string | undefined>;

/** The route of a frame's answer, filled in with its error once the answer is one. */
type Answer = { -readonly [K in keyof FrameRoute]: FrameRoute[K] };

const DEFAULT_OUTBOUND_TIMEOUT_MS = 60_000;

/**
 * A JSON-RPC 2.0 peer over one channel: checks envelopes, routes requests and notifications to
 * the handlers, answers each request exactly once (never a notification, never a cancelled
 * request), and correlates responses to the requests it sent itself.
 */
export class Engine {
  readonly #channel: Channel;
  readonly #handlers: EngineHandlers;
  /**
   * Every request being served, for `notifications/cancelled` (the latest one with the id) and
   * for aborting what is left on close. A peer may reuse an id while the first is still in
   * flight (and clients of the shared stateless HTTP connection do): each must still be aborted
   * on close. A list, not a Map by id and a Set (in-flight.ts says why).
   */
  readonly #live = new InFlight<InboundRequest>();
  readonly #outbound: OutboundRequests;
  readonly #endListeners: (() => void)[] = [];
  readonly #outboundTimeoutMs: number;
  #idle?: () => void;
  #closed = false;

  constructor(channel: Channel, handlers: EngineHandlers, options: EngineOptions = {}) {
    this.#channel = channel;
    this.#outbound = new OutboundRequests(
      channel.firstOutboundId,
      handlers.timeoutError &&
        ((method, params, timeoutMs) => handlers.timeoutError?.(method, params, timeoutMs)),
      (timedOut, error) => this.#handlers.outboundAbandoned?.(timedOut, 'timeout', error),
    );
    this.#handlers = handlers;
    this.#outboundTimeoutMs = options.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
    channel.start({
      frame: (text, origin, peer, parsed) => this.#onFrame(text, origin, peer, parsed),
      oversize: (bytes, limit) =>
        this.#send(
          errorFrame(null, {
            code: JsonRpcCode.InvalidRequest,
            message: `Invalid Request: message of ${bytes} bytes exceeds the limit of ${limit} bytes (maxMessageBytes)`,
          }),
        ),
      ended: () => {
        for (const listener of this.#endListeners) listener();
      },
      abandoned: (origin) => {
        for (const request of this.#live.items())
          if (request.origin === origin) request.abort('client disconnected');
      },
    });
  }

  /** Sends a request to the peer and resolves with its result (rejects with its error). */
  request(method: string, params: unknown, options: OutboundOptions = {}): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#outboundTimeoutMs;
    const { id, done } = this.#outbound.open(timeoutMs, method, params);
    const signal = options.signal;
    if (signal) {
      const onAbort = () => {
        if (this.#outbound.abandon(id, signal.reason))
          this.#handlers.outboundAbandoned?.(id, signal.reason);
      };
      if (signal.aborted) queueMicrotask(onAbort);
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        // A signal that outlives the request (a caller's, for many requests) keeps no listener.
        const unlink = () => signal.removeEventListener('abort', onAbort);
        done.then(unlink, unlink);
      }
    }
    // Once the request settled, an abort finds nothing to abandon: nothing to unlink.
    options.abortWith?.onAbort((reason) => {
      if (this.#outbound.abandon(id, reason)) this.#handlers.outboundAbandoned?.(id, reason);
    });
    options.onId?.(id);
    this.#send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), related(options.relatedTo));
    return done;
  }

  /** Sends a notification, on the stream of `relatedTo` when given. */
  notify(method: string, params?: unknown, relatedTo?: InboundRequest): void {
    const message =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.#send(JSON.stringify(message), related(relatedTo));
  }

  /** Aborts an inbound request's signal; its response, whatever it is, will not be sent. */
  cancel(id: JsonRpcId, reason: unknown): void {
    this.#live.findLast((request) => request.id === id)?.abort(reason);
  }

  /** Requests sent to the peer and still awaiting its answer. */
  get outboundPending(): number {
    return this.#outbound.size;
  }

  get inFlight(): number {
    return this.#live.size;
  }

  /** Called when the peer's input ends; the owner decides when to {@link close}. */
  onInputEnded(listener: () => void): void {
    this.#endListeners.push(listener);
  }

  /** Waits until no request is in flight, or `graceMs` passed; then aborts what is left and closes. */
  async close(graceMs = 0): Promise<void> {
    if (this.#live.size > 0 && graceMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.#idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#shutdown('server shutting down');
    await this.#channel.close();
  }

  /**
   * The peer is gone for good (its process exited, its pipe closed): every request still
   * waiting on it is rejected with `reason`, and nothing more is sent. Call {@link close} to
   * release the channel too.
   */
  abandon(reason: string): void {
    this.#shutdown(reason);
  }

  #shutdown(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const request of this.#live.items()) request.abort(reason);
    this.#outbound.rejectAll(new Error(reason));
  }

  #send(frame: string, route?: FrameRoute): void {
    if (!this.#closed) this.#channel.send(frame, route);
  }

  #onFrame(
    text: string,
    origin: unknown,
    peer: Peer | undefined,
    parsed?: { value: unknown },
  ): void {
    const route: Answer = { origin, final: true };
    let message: unknown;
    try {
      message = parsed
        ? parsed.value
        : this.#handlers.parseFrame
          ? this.#handlers.parseFrame(text)
          : parseFrame(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.#sendAndCheckIdle(
        errorFrame(null, { code: JsonRpcCode.ParseError, message: `Parse error: ${detail}` }),
        route,
      );
      return;
    }
    const reply = Array.isArray(message)
      ? this.#batch(message, origin, peer)
      : this.#message(message, origin, peer, route);
    if (reply instanceof Promise) void reply.then((frame) => this.#sendAndCheckIdle(frame, route));
    else this.#sendAndCheckIdle(reply, route);
  }

  // Idle is signalled only after the last answer went out, so a graceful close cannot drop it.
  #sendAndCheckIdle(frame: string | undefined, route: FrameRoute): void {
    if (frame) this.#send(frame, route);
    this.#channel.settle?.(route.origin);
    if (this.#live.size === 0) this.#idle?.();
  }

  #batch(items: unknown[], origin: unknown, peer: Peer | undefined): Reply {
    if (!this.#handlers.acceptBatch()) {
      return invalid(null, 'batches are not supported by the negotiated protocol revision');
    }
    if (items.length === 0) return invalid(null, 'empty batch');
    return Promise.all(items.map((item) => this.#message(item, origin, peer))).then((frames) => {
      const answered = frames.filter((f): f is string => f !== undefined);
      return answered.length ? `[${answered.join(',')}]` : undefined;
    });
  }

  /** `answer`, when given, learns the error the reply carries (a single message, not a batch). */
  #message(message: unknown, origin: unknown, peer: Peer | undefined, answer?: Answer): Reply {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return invalid(null, 'a JSON-RPC message must be an object');
    }
    const m = message as Record<string, unknown>;
    const hasId = Object.hasOwn(m, 'id');
    const id = isValidId(m.id) ? m.id : null;
    if (m.jsonrpc !== '2.0') return invalid(id, '"jsonrpc" must be "2.0"');
    if (typeof m.method === 'string') {
      const params = m.params;
      const structured = params === undefined || (typeof params === 'object' && params !== null);
      if (!hasId) {
        if (structured) this.#notification(m.method, params);
        return undefined;
      }
      if (id === null) return invalid(null, '"id" must be a string or an integer');
      if (!structured) return invalid(id, '"params" must be an object');
      return this.#request(
        new InboundRequest(
          id,
          m.method,
          params as Record<string, unknown> | undefined,
          origin,
          peer,
        ),
        answer,
      );
    }
    if (hasId && id !== null && (Object.hasOwn(m, 'result') || Object.hasOwn(m, 'error'))) {
      this.#outbound.settle(id, m.error as WireError | undefined, m.result);
      return undefined;
    }
    // An error response whose id the peer could not read settles nothing and is never answered:
    // replying to it could make two peers trade error responses forever.
    if (Object.hasOwn(m, 'error') && (!hasId || m.id === null)) return undefined;
    return invalid(id, 'expected a request, a notification or a response');
  }

  #notification(method: string, params: unknown): void {
    try {
      this.#handlers.notification(method, params);
    } catch (error) {
      this.#handlers.mapError(error);
    }
  }

  #request(request: InboundRequest, answer?: Answer): Reply {
    let result: unknown;
    try {
      result = this.#handlers.request(request);
    } catch (error) {
      return this.#fail(request, error, undefined, answer);
    }
    if (result instanceof Promise) {
      // Tracked only once it outlives this turn: nothing can cancel or close a request while its
      // handler runs synchronously, and most calls answer right away (a list entry saved per
      // call).
      const entry = this.#live.add(request);
      return result.then(
        (value) => this.#succeed(request, value, entry, answer),
        (error) => this.#fail(request, error, entry, answer),
      );
    }
    return this.#succeed(request, result, undefined, answer);
  }

  /** Forgets a finished request (`tracked`: its entry, if any); whether its answer is wanted. */
  #finish(request: InboundRequest, tracked: InFlightEntry<InboundRequest> | undefined): boolean {
    if (tracked) this.#live.remove(tracked);
    return !request.aborted;
  }

  #succeed(
    request: InboundRequest,
    result: unknown,
    tracked: InFlightEntry<InboundRequest> | undefined,
    answer?: Answer,
  ): string | undefined {
    if (!this.#finish(request, tracked)) return undefined;
    try {
      const encoded = this.#handlers.encodeResult
        ? this.#handlers.encodeResult(request, result)
        : result;
      return resultFrame(
        request.id,
        encoded instanceof RawJson ? encoded.json : JSON.stringify(encoded ?? {}),
      );
    } catch (error) {
      return this.#unencodable(request, result, error, answer);
    }
  }

  #resultFrame(request: InboundRequest, result: unknown): string {
    const encoded = this.#handlers.encodeResult
      ? this.#handlers.encodeResult(request, result)
      : result;
    return resultFrame(
      request.id,
      encoded instanceof RawJson ? encoded.json : JSON.stringify(encoded ?? {}),
    );
  }

  #unencodable(
    request: InboundRequest,
    result: unknown,
    error: unknown,
    answer: Answer | undefined,
  ): string {
    let failure = error;
    try {
      if (this.#handlers.unencodable)
        return this.#resultFrame(request, this.#handlers.unencodable(request, result, error));
    } catch (replaced) {
      failure = replaced;
    }
    return this.#errorFrame(request, failure, answer);
  }

  #fail(
    request: InboundRequest,
    error: unknown,
    tracked: InFlightEntry<InboundRequest> | undefined,
    answer: Answer | undefined,
  ): string | undefined {
    if (!this.#finish(request, tracked)) return undefined;
    return this.#errorFrame(request, error, answer);
  }

  #errorFrame(request: InboundRequest, error: unknown, answer: Answer | undefined): string {
    const wire = this.#handlers.mapError(error, request);
    if (answer) answer.error = wire;
    return errorFrame(request.id, wire);
  }
}

function related(request: InboundRequest | undefined): FrameRoute | undefined {
  return request && { origin: request.origin, final: false };
}

function invalid(id: JsonRpcId | null, why: string): string {
  return errorFrame(id, { code: JsonRpcCode.InvalidRequest, message: `Invalid Request: ${why}` });
}
