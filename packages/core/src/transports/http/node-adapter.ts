import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStreamSink, HttpRequestView, HttpResponder } from './exchange.js';

/**
 * Serves a node:http request through `handle` directly, without building `Request`/`Response`
 * objects (measurably cheaper on Node 20); behaves exactly like the fetch front end.
 */
export function nodeExchange(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (req: HttpRequestView, res: HttpResponder) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const view: HttpRequestView = {
    method: req.method ?? 'GET',
    url: new URL(req.url ?? '/', 'http://localhost'),
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    signal: controller.signal,
    remoteAddress: req.socket.remoteAddress,
    text: (limit) => readBody(req, limit),
  };
  const responder: HttpResponder = {
    send: (status, headers, body) => {
      res.writeHead(status, body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    },
    stream: (headers) => {
      res.writeHead(200, headers);
      res.flushHeaders();
      return new NodeStreamSink(res);
    },
  };
  return handle(view, responder).catch((error) => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
    throw error;
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering; drain the rest so the socket can be reused for the 413.
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

class NodeStreamSink implements EventStreamSink {
  #closed = false;
  readonly #listeners: (() => void)[] = [];

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => this.#finish());
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(chunk: string): void {
    if (!this.#closed) this.res.write(chunk);
  }

  end(): void {
    if (this.#closed) return;
    this.res.end();
    this.#finish();
  }

  onClose(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners) listener();
  }
}
