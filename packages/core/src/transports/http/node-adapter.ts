import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStreamSink, HeaderMap, HttpRequestView, HttpResponder } from './exchange.js';
import { IdleWatch, Watched } from './idle-watch.js';
import { BAD_REQUEST, sendError } from './responses.js';
import { headerMap } from './header-map.js';

/** Limits the node:http front end enforces itself (the server's own timeouts cover the rest). */
export interface NodeExchangeOptions {
  /**
   * Longest silence while a request body is being received, in ms; then the client gets 408
   * and the connection is closed. 0 or absent: no limit here.
   */
  readonly bodyIdleTimeoutMs?: number;
}

/** The body never arrived whole: the client went away, or stalled and was answered 408. */
class BodyNotReceived extends Error {}

/**
 * Serves a node:http request through `handle` directly, without building `Request`/`Response`
 * objects (measurably cheaper on Node 20); behaves exactly like the fetch front end. A failure
 * is answered 500 and handed to `report`: the listener only logs it, and a rejected promise
 * would need a second handler chained onto every request.
 */
export function nodeExchange(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (req: HttpRequestView, res: HttpResponder) => Promise<void>,
  options: NodeExchangeOptions,
  report: (error: unknown) => void,
): void {
  // The view answers too: one object per request instead of a view and a responder of closures.
  const view = new NodeRequestView(req, res, options.bodyIdleTimeoutMs ?? 0);
  const foreign = foreignTarget(req.url, view);
  if (foreign !== undefined) {
    sendError(view, 400, BAD_REQUEST, foreign);
    return;
  }
  handle(view, view).catch((error) => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
    // A body that never arrived is the client's doing and already answered; nothing to report.
    if (!(error instanceof BodyNotReceived)) report(error);
  });
}

/**
 * Why an absolute-form request target (`POST http://evil.com/mcp`, RFC 9112 §3.2.2) is refused,
 * or undefined when the target is a path or names the same host as `Host`. Such a target is
 * what a proxy is sent; aimed at this server with another host, it asks the server to act for a
 * host it was not addressed as, past the Host check that guards against DNS rebinding.
 */
function foreignTarget(target: string | undefined, view: HttpRequestView): string | undefined {
  if (target === undefined || target.charCodeAt(0) === 47 /* / */ || target === '*')
    return undefined;
  // Looked up only for such a target: a path (nearly every request) needs no Host here.
  const host = view.header('host');
  try {
    const url = new URL(target);
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    if (web && host !== undefined && url.host === hostPart(url.protocol, host)) return undefined;
  } catch {
    // Not a URL at all: refused below.
  }
  const shown = JSON.stringify(target.length > 100 ? `${target.slice(0, 99)}…` : target);
  return `Bad Request: the request target ${shown} is not a path on this server; send the path (e.g. POST /mcp) with a Host header`;
}

/** A Host header as `URL.host` writes it (lower case, the scheme's default port dropped). */
function hostPart(protocol: string, host: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}

// A path that `new URL` would return unchanged: no query, dot segments, escapes or leading "//".
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-_~/]*$/;
// The last path found plain: nearly every request names the same one (`/mcp`).
let lastPlainPath: string | undefined;

/**
 * One node:http request as the endpoint sees it. The URL, the abort signal and the abort
 * listeners are built only when asked for: most requests need none of them, and a per-request
 * `AbortController` was a visible share of a small call's cost.
 */
class NodeRequestView implements HttpRequestView, HttpResponder {
  readonly method: string;
  readonly remoteAddress: string | undefined;
  #url?: URL;
  #controller?: AbortController;
  #listeners?: (() => void)[];
  #aborted = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly bodyIdleTimeoutMs: number,
  ) {
    this.method = req.method ?? 'GET';
    this.remoteAddress = req.socket.remoteAddress;
    // 'close' comes once: `on` spares the wrapper `once` binds and removes per request.
    res.on('close', () => {
      if (!res.writableFinished) this.#abort();
    });
  }

  send(status: number, headers: HeaderMap, body?: string): void {
    const res = this.res;
    // Already answered by the adapter itself (a 408 for a stalled body).
    if (res.headersSent) return;
    res.writeHead(
      status,
      body === undefined
        ? headers
        : headerMap(headers, undefined, 'content-length', String(Buffer.byteLength(body))),
    );
    res.end(body);
  }

  stream(headers: HeaderMap): EventStreamSink {
    this.res.writeHead(200, headers);
    this.res.flushHeaders();
    return new NodeStreamSink(this.res);
  }

  get url(): URL {
    return (this.#url ??= new URL(this.req.url ?? '/', 'http://localhost'));
  }

  get path(): string {
    const raw = this.req.url ?? '/';
    if (raw === lastPlainPath) return raw;
    if (!PLAIN_PATH.test(raw)) return this.url.pathname;
    lastPlainPath = raw;
    return raw;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  readonly header = (name: string): string | undefined => {
    // Node keeps only the first of several Host headers; the guard must see them all.
    if (name === 'host') return hostOf(this.req);
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };

  readonly onAbort = (listener: () => void): void => {
    if (!this.#aborted) (this.#listeners ??= []).push(listener);
  };

  text(limit: number): Promise<string | undefined> {
    return readBody(this.req, this.res, limit, this.bodyIdleTimeoutMs);
  }

  #abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
    for (const listener of this.#listeners ?? []) listener();
  }
}

/** Every `Host` header line, joined with ", " as other repeated headers are. */
function hostOf(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host')
      found = found === undefined ? raw[i + 1] : `${found}, ${raw[i + 1]}`;
  }
  return found;
}

/**
 * One watch per idle limit: a server has one, so every body being received shares its timer.
 * Kept for the process's life (a few entries at most: one per distinct limit).
 */
const idleWatches = new Map<number, IdleWatch>();

function idleWatch(idleMs: number): IdleWatch | undefined {
  if (idleMs <= 0) return undefined;
  let watch = idleWatches.get(idleMs);
  if (!watch) idleWatches.set(idleMs, (watch = new IdleWatch(idleMs)));
  return watch;
}

function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  idleMs: number,
): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // A silence while the body is read, not the socket's inactivity: a response stream (SSE)
    // that follows must never be cut for being quiet.
    const watch = idleWatch(idleMs);
    const idle =
      watch &&
      new Watched(() => {
        if (settled) return;
        settled = true;
        const socket = req.socket;
        if (!res.headersSent) {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32000,
              message: `Request Timeout: no part of the body arrived for ${idleMs} ms`,
            },
          });
          res.writeHead(408, {
            'content-type': 'application/json',
            connection: 'close',
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
          // `connection: close` ends the socket once the answer is out; nothing more is read.
          res.once('finish', () => socket.destroy());
        } else {
          socket.destroy();
        }
        reject(new BodyNotReceived('request body stalled'));
      });
    if (idle) watch!.add(idle);
    req.on('data', (chunk: Buffer) => {
      if (idle) watch!.touch(idle);
      size += chunk.length;
      if (size > limit) {
        // Stop buffering; drain the rest so the socket can be reused for the 413.
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        settled = true;
        if (idle) watch!.remove(idle);
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    // 'end' and 'close' come once each: `on` spares the wrapper `once` binds per request.
    req.on('end', () => {
      if (settled) return;
      settled = true;
      if (idle) watch!.remove(idle);
      // A small body arrives as one chunk: decoded as it is, without Buffer.concat's copy.
      resolve(
        size > limit
          ? undefined
          : chunks.length === 1
            ? chunks[0]!.toString('utf8')
            : Buffer.concat(chunks).toString('utf8'),
      );
    });
    // An error (the client reset the connection) is always followed by 'close', and node:http
    // emits it only to listeners: 'close' alone covers both.
    req.on('close', () => {
      if (settled) return;
      settled = true;
      if (idle) watch!.remove(idle);
      reject(new BodyNotReceived('the client went away before its body arrived'));
    });
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
