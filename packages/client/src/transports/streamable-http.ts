import type { Channel, ChannelSink, JsonRpcId } from '@mcp-fw/core/transport';
import { httpExchange } from '#http-fetch';
import { AuthorizationError } from '../auth/errors.js';
import { failureResponse, TransportError } from '../errors.js';
import { modernHeaders } from './http-headers.js';
import { DEFAULT_MAX_MESSAGE_BYTES, describe, isJsonRpc } from './http-body.js';
import { fetchExchange, type HttpAnswer, type HttpExchange } from './http-exchange.js';
import { OversizeEventError, readSse, type SseCursor } from './sse.js';
import { answers, excerpt, peek, type ClientTransport, type Peeked } from './transport.js';

/** Options of the HTTP transports. */
export interface HttpTransportOptions {
  /** Headers sent on every HTTP request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The fetch to use. Default: on Node, node:http with keep-alive connections, a JSON answer
   * read without building a web `Response` (several times less CPU per request than Node's
   * own fetch); elsewhere the global fetch.
   */
  readonly fetch?: typeof fetch;
  /** How many times a legacy response stream that broke off is resumed with `Last-Event-ID` (default 3). */
  readonly maxReconnects?: number;
  /**
   * Longest message accepted from the server, in bytes (default 4 MiB): a longer JSON body or
   * SSE event fails its request with a `TransportError` instead of being buffered.
   */
  readonly maxMessageBytes?: number;
}

interface Exchange {
  readonly controller: AbortController;
  /** Sent with the 2026-07-28 envelope: closing its stream is the cancel. */
  readonly modern: boolean;
}

/**
 * The Streamable HTTP transport (2025-03-26 and later, and 2026-07-28): one POST per message;
 * each request's answer comes back as a JSON body or on an SSE stream scoped to it. Legacy
 * sessions carry `Mcp-Session-Id` and `MCP-Protocol-Version`; 2026-07-28 requests carry the
 * `Mcp-Method`/`Mcp-Name` headers and whatever {@link headersFor} adds (`Mcp-Param-*`). A legacy
 * stream that breaks off after an event id is resumed with GET and `Last-Event-ID`, after the
 * server's `retry:` delay (SEP-1699). Uses only web-standard APIs (fetch, streams), but for
 * the node:http exchange Node's `#http-fetch` variant hands it.
 */
export class StreamableHttpTransport implements ClientTransport {
  readonly kind = 'streamable-http' as const;
  readonly channel: Channel;
  /** Extra headers for one outgoing 2026-07-28 message (the client adds `Mcp-Param-*` here). */
  headersFor?: (message: Peeked) => Record<string, string> | undefined;
  onWarning?: (message: string) => void;
  readonly #url: URL;
  readonly #options: HttpTransportOptions;
  readonly #exchange: HttpExchange;
  readonly #exchanges = new Map<JsonRpcId, Exchange>();
  readonly #controllers = new Set<AbortController>();
  #sink?: ChannelSink;
  #sessionId?: string;
  #protocolVersion?: string;
  #closed = false;

  constructor(url: URL, options: HttpTransportOptions = {}) {
    this.#url = url;
    this.#options = options;
    this.#exchange = options.fetch ? fetchExchange(options.fetch) : httpExchange;
    this.channel = {
      start: (sink) => void (this.#sink = sink),
      send: (frame) => void this.#post(frame),
      close: async () => {},
    };
  }

  /** The legacy session the server minted at `initialize`, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  forgetSession(): boolean {
    if (this.#sessionId === undefined) return false;
    this.#sessionId = undefined;
    this.#protocolVersion = undefined;
    return true;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  cancel(id: JsonRpcId): boolean {
    const exchange = this.#exchanges.get(id);
    if (!exchange) return false;
    exchange.controller.abort();
    return exchange.modern;
  }

  /**
   * Opens the legacy session's standalone GET stream, where the server sends what belongs to no
   * request (requests not tied to one, list changes). A server without one answers 405, which
   * is fine; a stream that breaks off after an event id is resumed with `Last-Event-ID`.
   */
  openStream(): void {
    void this.#standalone();
  }

  async #standalone(): Promise<void> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const cursor: SseCursor = {};
    try {
      for (let failures = 0; !this.#closed && failures <= this.#maxReconnects(); ) {
        const headers = this.#legacyHeaders({
          ...this.#options.headers,
          accept: 'text/event-stream',
        });
        if (cursor.lastEventId !== undefined) headers['last-event-id'] = cursor.lastEventId;
        const answer = await this.#exchange(this.#url, {
          method: 'GET',
          headers,
          signal: controller.signal,
        });
        const body = ok(answer) ? answer.stream() : null;
        if (!body) {
          await answer.discard();
          if (answer.status !== 405)
            this.onWarning?.(
              `The standalone stream GET ${this.#url.href} got HTTP ${answer.status}`,
            );
          return;
        }
        const before = cursor.lastEventId;
        await this.#stream(body, undefined, cursor);
        if (this.#closed || cursor.lastEventId === undefined) return;
        failures = cursor.lastEventId === before ? failures + 1 : 0;
        await sleep(cursor.retryMs ?? 1000, controller.signal);
      }
    } catch (error) {
      if (!controller.signal.aborted)
        this.onWarning?.(`The standalone stream GET ${this.#url.href} failed: ${String(error)}`);
    } finally {
      this.#controllers.delete(controller);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#controllers) controller.abort();
    if (this.#sessionId === undefined) return;
    // Legacy sessions are ended explicitly; a server that keeps none answers 405, which is fine.
    await this.#exchange(this.#url, {
      method: 'DELETE',
      headers: this.#legacyHeaders({}),
      signal: AbortSignal.timeout(2000),
    })
      .then((answer) => answer.discard())
      .catch(() => {});
  }

  async #post(frame: string): Promise<void> {
    if (this.#closed) return;
    const message = peek(frame);
    const id = message.method !== undefined ? message.id : undefined;
    const modern = modernHeaders(message);
    const headers: Record<string, string> = {
      ...this.#options.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (modern) Object.assign(headers, modern, this.headersFor?.(message));
    else this.#legacyHeaders(headers);
    const controller = new AbortController();
    this.#controllers.add(controller);
    if (id !== undefined) this.#exchanges.set(id, { controller, modern: modern !== undefined });
    try {
      const answer = await this.#exchange(this.#url, {
        method: 'POST',
        headers,
        body: frame,
        signal: controller.signal,
      });
      await this.#receive(answer, message, controller, {
        legacy: modern === undefined,
        session: headers['mcp-session-id'],
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      const cause = error instanceof Error ? error.message : String(error);
      // A failed sign-in is reported as itself, not as an unreachable server.
      const failure =
        error instanceof AuthorizationError
          ? error
          : new TransportError(`Cannot reach ${this.#url.href}: ${cause}`, { cause: error });
      if (id !== undefined) this.#fail(id, failure);
      else this.onWarning?.(`${failure.message} (while sending ${describe(message)})`);
    } finally {
      this.#controllers.delete(controller);
      if (id !== undefined && this.#exchanges.get(id)?.controller === controller)
        this.#exchanges.delete(id);
    }
  }

  async #receive(
    response: HttpAnswer,
    message: Peeked,
    controller: AbortController,
    sent: { readonly legacy: boolean; readonly session?: string },
  ): Promise<void> {
    const legacy = sent.legacy;
    const session = response.header('mcp-session-id');
    if (session && legacy) this.#sessionId = session;
    const id = message.method !== undefined ? message.id : undefined;
    const type = response.header('content-type') ?? '';
    const body = ok(response) && type.includes('text/event-stream') ? response.stream() : null;
    if (body) {
      try {
        await this.#receiveStream(body, message, controller, legacy);
      } catch (error) {
        if (!(error instanceof OversizeEventError)) throw error;
        controller.abort();
        const failure = new TransportError(
          `The server sent ${error.message} on the stream of ${describe(message)}; refused`,
        );
        if (id !== undefined) this.#fail(id, failure);
        else this.onWarning?.(failure.message);
      }
      return;
    }
    let text: string;
    try {
      text = await response.text(this.#maxBytes());
    } catch (error) {
      if (!(error instanceof OversizeEventError)) throw error;
      controller.abort();
      const failure = new TransportError(
        `The server answered ${describe(message)} with ${error.message}; refused`,
        { status: response.status },
      );
      if (id !== undefined) this.#fail(id, failure);
      else this.onWarning?.(failure.message);
      return;
    }
    if (response.status === 404 && sent.session !== undefined && id !== undefined) {
      // The session is gone (expired, deleted, a restarted server): a transport failure the
      // client answers with a new initialize, whatever JSON-RPC error the body carries.
      this.#fail(
        id,
        new TransportError(
          `HTTP 404 from POST ${this.#url.href} (${describe(message)}): the server no longer knows session ${sent.session}: ${excerpt(text)}`,
          { status: 404, body: excerpt(text, 1000) },
        ),
      );
      return;
    }
    this.#answerBody(response, message, text, type);
  }

  async #receiveStream(
    body: ReadableStream<Uint8Array>,
    message: Peeked,
    controller: AbortController,
    legacy: boolean,
  ): Promise<void> {
    const id = message.method !== undefined ? message.id : undefined;
    const cursor: SseCursor = {};
    let answered = await this.#stream(body, id, cursor);
    for (let attempt = 0; !answered && id !== undefined && !controller.signal.aborted; attempt++) {
      if (!legacy || cursor.lastEventId === undefined || attempt >= this.#maxReconnects()) {
        this.#fail(
          id,
          new TransportError(
            `The server closed the response stream of ${describe(message)} before answering it`,
          ),
        );
        return;
      }
      answered = await this.#resume(cursor, controller, message);
    }
  }

  #answerBody(response: HttpAnswer, message: Peeked, text: string, type: string): void {
    const id = message.method !== undefined ? message.id : undefined;
    if (id === undefined) {
      if (!ok(response))
        this.onWarning?.(
          `HTTP ${response.status} from POST ${this.#url.href} (${describe(message)}): ${excerpt(text)}`,
        );
      return;
    }
    if (response.status === 202 || response.status === 204) {
      this.#fail(
        id,
        new TransportError(
          `The server accepted ${describe(message)} with HTTP ${response.status} but sent no answer`,
          { status: response.status },
        ),
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {}
    if (isJsonRpc(parsed)) {
      // An error the server could not tie to the request (id null: a bad session, a bad header)
      // still answers it: it is the only message this POST will get.
      const value = parsed.id === null && 'error' in parsed ? { ...parsed, id } : parsed;
      this.#sink?.frame(text, undefined, undefined, { value });
      if (answers(value, id)) return;
    }
    this.#fail(
      id,
      new TransportError(
        ok(response)
          ? `The server answered ${describe(message)} with a body that is not its JSON-RPC response (HTTP ${response.status}, ${type || 'no content type'}): ${excerpt(text)}`
          : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} from POST ${this.#url.href} (${describe(message)}): ${excerpt(text)}`,
        { status: response.status, body: excerpt(text, 1000) },
      ),
    );
  }

  /** Delivers a stream's messages; whether it carried the answer to `id`. */
  async #stream(
    body: ReadableStream<Uint8Array>,
    id: JsonRpcId | undefined,
    cursor: SseCursor = {},
  ): Promise<boolean> {
    try {
      for await (const event of readSse(body, cursor, this.#maxBytes())) {
        if (event.event !== 'message' || event.data.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(event.data);
        } catch {
          this.onWarning?.(`The server sent an SSE event that is not JSON: ${excerpt(event.data)}`);
          continue;
        }
        this.#sink?.frame(event.data, undefined, undefined, { value });
        if (id !== undefined && answers(value, id)) return true;
      }
    } catch (error) {
      if (error instanceof OversizeEventError) throw error;
      // A stream that breaks off is handled like one that ended: resumed, or failed.
    }
    return false;
  }

  /** GET with `Last-Event-ID` after the server's `retry:` delay; whether the answer came. */
  async #resume(cursor: SseCursor, controller: AbortController, message: Peeked): Promise<boolean> {
    await sleep(cursor.retryMs ?? 1000, controller.signal);
    if (controller.signal.aborted) return false;
    const headers = this.#legacyHeaders({
      ...this.#options.headers,
      accept: 'text/event-stream',
      'last-event-id': cursor.lastEventId as string,
    });
    try {
      const answer = await this.#exchange(this.#url, {
        method: 'GET',
        headers,
        signal: controller.signal,
      });
      const body = ok(answer) ? answer.stream() : null;
      if (!body) {
        await answer.discard();
        this.onWarning?.(
          `Resuming the stream of ${describe(message)} got HTTP ${answer.status} from GET ${this.#url.href}`,
        );
        return false;
      }
      return await this.#stream(body, message.id, cursor);
    } catch {
      return false;
    }
  }

  #legacyHeaders(headers: Record<string, string>): Record<string, string> {
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined)
      headers['mcp-protocol-version'] = this.#protocolVersion;
    return headers;
  }

  #maxBytes(): number {
    return this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  #maxReconnects(): number {
    return this.#options.maxReconnects ?? 3;
  }

  #fail(id: JsonRpcId, error: Error): void {
    this.#sink?.frame('', undefined, undefined, failureResponse(id, error));
  }
}

/** A 2xx status, as `Response.ok`. */
function ok(answer: HttpAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
