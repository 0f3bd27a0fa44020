import type { EventStreamSink, HeaderMap, HttpRequestView, HttpResponder } from './exchange.js';

/** Serves a web-standard `Request` through `handle`, resolving with its `Response`. */
export function fetchExchange(
  request: Request,
  handle: (req: HttpRequestView, res: HttpResponder) => Promise<void>,
  remoteAddress?: string,
): Promise<Response> {
  const url = new URL(request.url);
  const view: HttpRequestView = {
    method: request.method,
    url,
    path: url.pathname,
    remoteAddress,
    // Fetch-style runtimes put the Host header into the URL and keep it out of `headers`.
    header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : undefined),
    signal: request.signal,
    onAbort: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
    text: (limit) => readBody(request, limit),
  };
  return new Promise<Response>((resolve, reject) => {
    const responder: HttpResponder = {
      send: (status, headers, body) =>
        resolve(
          new Response(status === 204 || status === 202 ? null : (body ?? null), {
            status,
            headers,
          }),
        ),
      stream: (headers) => {
        const sink = new StreamSink();
        resolve(new Response(sink.readable, { status: 200, headers }));
        request.signal.addEventListener('abort', () => sink.abort(), { once: true });
        return sink;
      },
    };
    handle(view, responder).catch(reject);
  });
}

/**
 * The body as text, or undefined past `limit` bytes. Read chunk by chunk and cancelled at the
 * limit: a body without `Content-Length` (chunked) is never buffered beyond it.
 */
async function readBody(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(whole);
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

class StreamSink implements EventStreamSink {
  readonly readable: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  readonly #listeners: (() => void)[] = [];

  constructor() {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.abort(),
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(chunk: string): void {
    if (!this.#closed) this.#controller.enqueue(encoder.encode(chunk));
  }

  end(): void {
    if (this.#closed) return;
    this.#controller.close();
    this.#finish();
  }

  abort(): void {
    if (!this.#closed) this.#finish();
  }

  onClose(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #finish(): void {
    this.#closed = true;
    for (const listener of this.#listeners) listener();
  }
}

export type { HeaderMap };
