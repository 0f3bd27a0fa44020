import {
  Engine,
  INPUT_KEY_META,
  JsonRpcCode,
  JsonRpcError,
  type InboundRequest,
  type JsonRpcId,
} from '@mcp-fw/core/transport';
import { RequestTimeoutError, TransportError, unwrap } from './errors.js';
import { answerInput } from './input.js';
import type { ClientTransport } from './transports/transport.js';
import type { CallOptions, Era, InputHandlers, LogMessage, Progress } from './types.js';

/** What a session needs from the client's options. */
export interface SessionOptions {
  readonly handlers: InputHandlers;
  /** Default per-request timeout in ms. */
  readonly timeoutMs: number;
  /** Most `input_required` rounds one call may take (2026-07-28). */
  readonly maxInputRounds: number;
  readonly onLog?: (message: LogMessage) => void;
  readonly onWarning: (message: string) => void;
}

/** {@link CallOptions} plus what only the client's own modules pass. */
export interface SessionCallOptions extends CallOptions {
  /** Told the JSON-RPC id of each request sent for this call. */
  readonly onId?: (id: JsonRpcId) => void;
}

/** A listener of every notification the server sends. */
export type NotificationListener = (method: string, params: Record<string, unknown>) => void;

/**
 * One connection's JSON-RPC side: core's {@link Engine} on the transport's channel, with what
 * the era asks of every request (the 2026-07-28 envelope, or nothing past `initialize`), the
 * input rounds of 2026-07-28, progress tokens, timeouts and cancellation.
 */
export class Session {
  readonly engine: Engine;
  readonly transport: ClientTransport;
  era?: Era;
  protocolVersion?: string;
  /** The `_meta` every 2026-07-28 request carries. */
  envelope?: Record<string, unknown>;
  /** The envelope of a call that asks for no task (without the tasks extension). */
  taskFreeEnvelope?: Record<string, unknown>;
  readonly #options: SessionOptions;
  readonly #progress = new Map<string, (progress: Progress) => void>();
  readonly #listeners = new Set<NotificationListener>();
  #nextToken = 0;
  #ended?: string;
  /**
   * Starts a new legacy session after the server forgot this one (set by `connect`); the
   * generation counts sessions, so that requests failing with the old one do not start another.
   */
  reinitialize?: () => Promise<void>;
  #generation = 0;
  #reinitializing?: Promise<void>;

  constructor(transport: ClientTransport, options: SessionOptions) {
    this.transport = transport;
    this.#options = options;
    transport.onWarning = options.onWarning;
    this.engine = new Engine(
      transport.channel,
      {
        request: (request) => this.#serve(request),
        notification: (method, params) =>
          this.#notified(method, (params ?? {}) as Record<string, unknown>),
        mapError: (error) =>
          error instanceof JsonRpcError
            ? error.toJSON()
            : {
                code: JsonRpcCode.InternalError,
                message: error instanceof Error ? error.message : String(error),
              },
        acceptBatch: () => false,
        // The engine's timer times requests out (see raw), with the error the caller gets.
        timeoutError: (method, params, timeoutMs) =>
          new RequestTimeoutError(
            describeCall(method, params),
            timeoutMs,
            this.transport.diagnosis?.() ?? '',
          ),
        outboundAbandoned: (id, reason, error) =>
          this.#abandoned(id, reason === 'timeout' && error !== undefined ? error : reason),
      },
      { outboundTimeoutMs: Infinity },
    );
    this.engine.onInputEnded(() => {
      this.#ended ??= transport.describeEnd?.() ?? 'The server closed the connection';
      this.engine.abandon(this.#ended);
    });
  }

  /** Listens to every notification; returns the function that stops listening. */
  listen(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Sends exactly `params` (no envelope, no input rounds), with the timeout and cancellation of
   * `options`. Rejects with the server's `JsonRpcError`, a `TransportError`, a
   * `RequestTimeoutError`, or the signal's reason.
   */
  raw(method: string, params: unknown, options: SessionCallOptions = {}): Promise<unknown> {
    if (this.#ended !== undefined) return Promise.reject(new TransportError(this.#ended));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs;
    // The engine's own timer and the caller's signal, as they are: no AbortController, timer or
    // listener of the session's per request (a forwarding proxy makes one call per request).
    // Promise callbacks rather than an async function: one call runs through several layers,
    // and each async frame is an allocation and a turn of the microtask queue.
    let done: Promise<unknown>;
    try {
      done = this.engine.request(method, params, {
        timeoutMs,
        signal,
        abortWith: options.abortWith,
        onId: options.onId,
      });
    } catch (error) {
      return Promise.reject(this.#translate(error));
    }
    return done.catch(this.#rethrow);
  }

  /** A failed request's error as the caller sees it (one function for every request). */
  readonly #rethrow = (error: unknown): never => {
    throw this.#translate(error);
  };

  /**
   * Sends a request as the negotiated era wants it: the envelope and a progress token in
   * `_meta`; under 2026-07-28, each `input_required` result answered by the input handlers and
   * the request retried (a new id, that round's `inputResponses`, the `requestState` echoed).
   */
  request<T>(
    method: string,
    params: Record<string, unknown> = {},
    options: SessionCallOptions = {},
  ): Promise<T> {
    // A legacy request without progress is one request with nothing to clean up: no promise of
    // its own around it (a forwarding proxy sends one per call it passes on).
    if (this.era === 'legacy' && !options.onProgress)
      return this.#send(method, params, undefined, options) as Promise<T>;
    return this.#rounds(method, params, options);
  }

  async #rounds<T>(
    method: string,
    params: Record<string, unknown>,
    options: SessionCallOptions,
  ): Promise<T> {
    let current = params;
    for (let round = 0; ; round++) {
      const token = options.onProgress ? this.#progressToken(options.onProgress) : undefined;
      let result: unknown;
      try {
        result = await this.#send(method, current, token, options);
      } finally {
        if (token !== undefined) this.#progress.delete(token);
      }
      if (this.era !== 'modern' || !isInputRequired(result)) return result as T;
      if (round + 1 >= this.#options.maxInputRounds)
        throw new Error(
          `${describeCall(method, params)}: the server still asked for input after ${this.#options.maxInputRounds} rounds (maxInputRounds)`,
        );
      const inputResponses = await this.#answerAll(result.inputRequests, options.signal);
      current = {
        ...params,
        ...(inputResponses === undefined ? {} : { inputResponses }),
        ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
      };
      if (inputResponses === undefined) delete current.inputResponses;
      if (typeof result.requestState !== 'string') delete current.requestState;
    }
  }

  /**
   * Sends one request; a legacy HTTP session the server forgot (404) is replaced by a new one
   * and the request sent once more: the server refused it before serving it.
   */
  #send(
    method: string,
    params: Record<string, unknown>,
    token: string | undefined,
    options: SessionCallOptions,
  ): Promise<unknown> {
    // Only a legacy HTTP session can be forgotten: elsewhere one request, no frame around it.
    if (this.era !== 'legacy' || this.transport.forgetSession === undefined)
      return this.raw(method, this.#dress(params, token, options), options);
    return this.#sendOrRenew(method, params, token, options);
  }

  #sendOrRenew(
    method: string,
    params: Record<string, unknown>,
    token: string | undefined,
    options: SessionCallOptions,
  ): Promise<unknown> {
    const generation = this.#generation;
    return this.raw(method, this.#dress(params, token, options), options).catch((error: unknown) =>
      this.#sendAgain(error, generation, method, params, token, options),
    );
  }

  /** After `#send` failed: a new session and the request once more, or the error as it is. */
  async #sendAgain(
    error: unknown,
    generation: number,
    method: string,
    params: Record<string, unknown>,
    token: string | undefined,
    options: SessionCallOptions,
  ): Promise<unknown> {
    if (!(error instanceof TransportError) || error.status !== 404 || this.era !== 'legacy')
      throw error;
    if (!this.reinitialize) throw error;
    if (generation === this.#generation) {
      if (!this.transport.forgetSession?.()) throw error;
      this.#generation++;
      const reinitialize = this.reinitialize;
      this.#reinitializing = reinitialize().finally(() => (this.#reinitializing = undefined));
    }
    await this.#reinitializing;
    this.#options.onWarning(
      `The server forgot the session (HTTP 404); a new one was initialized and ${describeCall(method, params)} sent again`,
    );
    return this.raw(method, this.#dress(params, token, options), options);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.engine.notify(method, params);
  }

  async close(): Promise<void> {
    if (this.#ended === 'The client closed the connection') return;
    this.#ended = 'The client closed the connection';
    this.engine.abandon(this.#ended);
    await this.engine.close();
    await this.transport.close();
  }

  #dress(
    params: Record<string, unknown>,
    token: string | undefined,
    options: CallOptions,
  ): Record<string, unknown> {
    const own = params._meta as Record<string, unknown> | undefined;
    const extra = options._meta;
    const envelope =
      options.task === false ? (this.taskFreeEnvelope ?? this.envelope) : this.envelope;
    if (!own && !extra && token === undefined && !envelope) return params;
    const _meta: Record<string, unknown> = { ...own, ...extra, ...envelope };
    if (token !== undefined) _meta.progressToken = token;
    return { ...params, _meta };
  }

  #progressToken(listener: (progress: Progress) => void): string {
    const token = `p${this.#nextToken++}`;
    this.#progress.set(token, listener);
    return token;
  }

  async #answerAll(
    requests: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown> | undefined> {
    if (typeof requests !== 'object' || requests === null) return undefined;
    const entries = Object.entries(
      requests as Record<string, { method?: unknown; params?: unknown }>,
    );
    const answers = await Promise.all(
      entries.map(async ([key, input]) => [
        key,
        await answerInput(
          this.#options.handlers,
          String(input?.method),
          input?.params as Record<string, unknown> | undefined,
          { era: 'modern', signal, key },
        ),
      ]),
    );
    return Object.fromEntries(answers);
  }

  #serve(request: InboundRequest): unknown {
    if (this.era === 'modern')
      throw new JsonRpcError(
        JsonRpcCode.MethodNotFound,
        `Method not found: ${request.method} (a 2026-07-28 server asks for input with input_required results, never with requests)`,
      );
    if (request.method === 'ping') return {};
    const key = (request.params?._meta as Record<string, unknown> | undefined)?.[INPUT_KEY_META];
    return answerInput(this.#options.handlers, request.method, request.params, {
      era: 'legacy',
      signal: request.signal,
      ...(typeof key === 'string' ? { key } : {}),
    });
  }

  #notified(method: string, params: Record<string, unknown>): void {
    if (method === 'notifications/progress') {
      const listener = this.#progress.get(String(params.progressToken));
      const { progress, total, message } = params;
      if (listener && typeof progress === 'number')
        listener({
          progress,
          ...(typeof total === 'number' ? { total } : {}),
          ...(typeof message === 'string' ? { message } : {}),
        });
    } else if (method === 'notifications/message') {
      this.#options.onLog?.({
        level: String(params.level),
        data: params.data,
        ...(typeof params.logger === 'string' ? { logger: params.logger } : {}),
      });
    } else if (method === 'notifications/cancelled') {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.engine.cancel(id, params.reason);
    }
    for (const listener of this.#listeners) listener(method, params);
  }

  #abandoned(id: JsonRpcId, reason: unknown): void {
    // 2026-07-28 over HTTP: closing the stream is the cancel. Elsewhere the server is told.
    if (this.transport.cancel?.(id) || this.#ended !== undefined) return;
    const why = reason instanceof Error ? reason.message : String(reason ?? 'cancelled');
    this.engine.notify('notifications/cancelled', { requestId: id, reason: why });
  }

  #translate(error: unknown): unknown {
    const unwrapped = unwrap(error);
    if (
      this.#ended !== undefined &&
      unwrapped instanceof Error &&
      !(unwrapped instanceof JsonRpcError) &&
      unwrapped.message === this.#ended
    )
      return new TransportError(this.#ended);
    return unwrapped;
  }
}

function isInputRequired(
  result: unknown,
): result is { resultType: 'input_required'; inputRequests?: unknown; requestState?: unknown } {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === 'input_required'
  );
}

/** `tools/call "add"`, `resources/read "file:///x"`, or the method alone. */
export function describeCall(method: string, params: unknown): string {
  const p = params as { name?: unknown; uri?: unknown } | undefined;
  const name = p?.name ?? p?.uri;
  return typeof name === 'string' ? `${method} "${name}"` : method;
}
