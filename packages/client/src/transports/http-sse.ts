import type { Channel, ChannelSink, JsonRpcId } from '@mcp-fw/core/transport';
import { failureResponse, TransportError } from '../errors.js';
import { readSse, type SseEvent } from './sse.js';
import type { HttpTransportOptions } from './streamable-http.js';
import { DEFAULT_MAX_MESSAGE_BYTES, describe } from './http-body.js';
import { excerpt, peek, type ClientTransport } from './transport.js';

/**
 * The HTTP+SSE transport of 2024-11-05: a GET opens the stream every server message arrives on;
 * its first event, `endpoint`, names the URL each client message is POSTed to. Opened with
 * {@link open}, which fails with a {@link TransportError} when the URL serves no such stream.
 */
export class HttpSseTransport implements ClientTransport {
  readonly kind = 'http+sse' as const;
  readonly channel: Channel;
  onWarning?: (message: string) => void;
  readonly #options: HttpTransportOptions;
  readonly #fetch: typeof fetch;
  readonly #controller = new AbortController();
  #endpoint?: URL;
  #sink?: ChannelSink;
  #events?: AsyncGenerator<SseEvent>;
  /** Messages that arrived before the engine started listening. */
  #early: string[] = [];

  constructor(options: HttpTransportOptions = {}) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.channel = {
      start: (sink) => {
        this.#sink = sink;
        for (const text of this.#early.splice(0)) sink.frame(text);
      },
      send: (frame) => void this.#post(frame),
      close: async () => {},
    };
  }

  /** Opens the event stream at `url` and waits for its `endpoint` event. */
  async open(url: URL, timeoutMs: number): Promise<void> {
    const timer = setTimeout(() => this.#controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await this.#fetch(url, {
        method: 'GET',
        headers: { ...this.#options.headers, accept: 'text/event-stream' },
        signal: this.#controller.signal,
      });
    } catch (error) {
      clearTimeout(timer);
      throw new TransportError(`Cannot open the HTTP+SSE stream at ${url.href}: ${String(error)}`, {
        cause: error,
      });
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('text/event-stream') || !response.body) {
      clearTimeout(timer);
      const text = await response.text().catch(() => '');
      throw new TransportError(
        `GET ${url.href} answered HTTP ${response.status} (${type || 'no content type'}), not an HTTP+SSE event stream: ${excerpt(text)}`,
        { status: response.status, body: excerpt(text, 1000) },
      );
    }
    this.#events = readSse(
      response.body,
      {},
      this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    );
    for (;;) {
      const next = await this.#events
        .next()
        .catch(() => ({ done: true as const, value: undefined }));
      if (next.done) {
        clearTimeout(timer);
        throw new TransportError(
          `The HTTP+SSE stream at ${url.href} ended before its endpoint event`,
        );
      }
      if (next.value.event === 'endpoint') {
        clearTimeout(timer);
        const endpoint = new URL(next.value.data.trim(), url);
        if (endpoint.origin !== url.origin)
          throw new TransportError(
            `The HTTP+SSE endpoint event names ${endpoint.origin}, another origin than ${url.origin}: refused`,
          );
        this.#endpoint = endpoint;
        void this.#read();
        return;
      }
    }
  }

  async close(): Promise<void> {
    this.#controller.abort();
    await this.#events?.return(undefined).catch(() => {});
  }

  async #read(): Promise<void> {
    try {
      for await (const event of this.#events as AsyncGenerator<SseEvent>) {
        if (event.event !== 'message' || event.data.trim() === '') continue;
        if (this.#sink) this.#sink.frame(event.data);
        else this.#early.push(event.data);
      }
    } catch (error) {
      if (!this.#controller.signal.aborted)
        this.onWarning?.(`The HTTP+SSE event stream failed: ${(error as Error).message}`);
    }
    if (!this.#controller.signal.aborted) this.onWarning?.('The HTTP+SSE event stream ended');
    this.#sink?.ended();
  }

  async #post(frame: string): Promise<void> {
    const message = peek(frame);
    const id: JsonRpcId | undefined = message.method !== undefined ? message.id : undefined;
    try {
      const response = await this.#fetch(this.#endpoint as URL, {
        method: 'POST',
        headers: { ...this.#options.headers, 'content-type': 'application/json' },
        body: frame,
        signal: this.#controller.signal,
      });
      const text = await response.text();
      if (response.ok) return;
      const failure = new TransportError(
        `HTTP ${response.status} from POST ${this.#endpoint?.href} (${describe(message)}): ${excerpt(text)}`,
        { status: response.status, body: excerpt(text, 1000) },
      );
      if (id !== undefined)
        this.#sink?.frame('', undefined, undefined, failureResponse(id, failure));
      else this.onWarning?.(failure.message);
    } catch (error) {
      if (this.#controller.signal.aborted) return;
      const failure = new TransportError(`Cannot reach ${this.#endpoint?.href}: ${String(error)}`, {
        cause: error,
      });
      if (id !== undefined)
        this.#sink?.frame('', undefined, undefined, failureResponse(id, failure));
      else this.onWarning?.(failure.message);
    }
  }
}
