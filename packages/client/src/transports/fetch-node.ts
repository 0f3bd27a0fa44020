import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  fetchExchange,
  type HttpAnswer,
  type HttpExchange,
  type HttpExchangeInit,
} from './http-exchange.js';
import { OversizeEventError } from './sse.js';

// The `#http-fetch` variant for Node (package.json `imports`): the Streamable HTTP transport's
// exchange over node:http with keep-alive agents. Node's own fetch (undici) costs 3 to 4 times
// the CPU of a node:http request per call, and wrapping a node:http response in a web `Response`
// and its body stream costs about as much again as the request (bench/README.md, "The client"):
// so a JSON answer is read from the `IncomingMessage` itself, and only an SSE answer gets a
// web byte stream, which the transport parses as it does from fetch. `httpFetch`, the fetch the
// sign-in wraps, is the same request answered as a `Response`. A redirect (rare for an MCP
// endpoint), another runtime posing as Node, or a scheme other than http(s) goes to the global
// fetch, unchanged.

const onNode =
  typeof process === 'object' &&
  typeof process.versions?.node === 'string' &&
  process.versions.bun === undefined &&
  !('Deno' in globalThis);

// Idle sockets of a keep-alive agent are unref'd: they never keep the process alive.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });
const NULL_BODY = new Set([101, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
const noop = () => {};

const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
const webExchange = fetchExchange(globalFetch);

/** The Streamable HTTP transport's exchange: node:http on Node, the global fetch elsewhere. */
export const httpExchange: HttpExchange = async (url, init) => {
  if (!onNode || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return webExchange(url, init);
  return (await nodeExchange(url, init)) ?? webExchange(url, init);
};

/** A fetch over the same node:http requests, for what wraps a fetch (the sign-in). */
export const httpFetch: typeof fetch = async (input, init) => {
  if (!covered(input, init)) return globalFetch(input, init);
  const url = typeof input === 'string' ? new URL(input) : (input as URL);
  const answer = await nodeExchange(url, {
    method: init?.method ?? 'GET',
    headers: plainHeaders(init?.headers),
    body: (init?.body ?? undefined) as string | undefined,
    signal: init?.signal ?? new AbortController().signal,
  });
  return answer === undefined ? globalFetch(input, init) : answer.response();
};

function covered(input: unknown, init: RequestInit | undefined): boolean {
  if (!onNode || !(typeof input === 'string' || input instanceof URL)) return false;
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return false;
  if (init?.redirect === 'manual' || init?.redirect === 'error') return false;
  const scheme =
    typeof input === 'string' ? input.slice(0, input.indexOf(':') + 1) : input.protocol;
  return scheme === 'http:' || scheme === 'https:';
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers))
    return Object.fromEntries(headers instanceof Headers ? headers : new Headers(headers));
  return { ...(headers as Record<string, string>) };
}

/** One request over node:http; undefined for a redirect, which the global fetch follows. */
function nodeExchange(url: URL, init: HttpExchangeInit): Promise<NodeAnswer | undefined> {
  const { signal, body } = init;
  if (signal.aborted) return Promise.reject(signal.reason);
  const headers =
    body === undefined
      ? init.headers
      : { ...init.headers, 'content-length': String(Buffer.byteLength(body)) };
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let answer: NodeAnswer | undefined;
    const onAbort = () => {
      req.destroy();
      if (answer === undefined) reject(signal.reason);
      else answer.fail(signal.reason);
    };
    const stopListening = () => signal.removeEventListener('abort', onAbort);
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: init.method,
      headers,
      agent: https ? httpsAgent : httpAgent,
    });
    signal.addEventListener('abort', onAbort, { once: true });
    // `on`, not `once`: a second 'error' without a listener would be thrown. Once the answer
    // came, its body reports what breaks.
    req.on('error', (error) => {
      if (answer !== undefined) return;
      stopListening();
      reject(new TypeError(`fetch failed: ${error.message}`, { cause: error }));
    });
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      const redirect = REDIRECT.has(status) && res.headers.location !== undefined;
      if (redirect || status < 200 || status > 599) {
        // A status outside 200–599 is refused as fetch refuses it.
        stopListening();
        res.on('error', noop);
        if (redirect) res.resume();
        else res.destroy();
        if (redirect) resolve(undefined);
        else reject(new TypeError(`fetch failed: HTTP ${status}`));
        return;
      }
      answer = new NodeAnswer(res, NULL_BODY.has(status) || init.method === 'HEAD', stopListening);
      resolve(answer);
    });
    req.end(body);
  });
}

/** Who reads the body: `text` or `stream`. */
interface BodyReader {
  data(chunk: Buffer): void;
  end(): void;
  fail(error: unknown): void;
}

/** The answer of a node:http request, its body read from the `IncomingMessage` itself. */
class NodeAnswer implements HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly #res: IncomingMessage;
  readonly #empty: boolean;
  /** Stops listening to the request's abort signal. */
  readonly #release: () => void;
  #reader?: BodyReader;
  /** Once the body ended, failed or was let go: nothing more goes to the reader. */
  #settled = false;
  /** How the body settled before a reader came: `null` ended, anything else failed. */
  #outcome?: unknown;

  constructor(res: IncomingMessage, empty: boolean, release: () => void) {
    this.#res = res;
    this.#empty = empty;
    this.#release = release;
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    res.on('error', (error) => {
      if (!this.#settled) this.fail(new TypeError('terminated', { cause: error }));
    });
    // A connection that closes before the end: the body fails, as fetch's does. ('close'
    // follows every 'end': the error is made only when it means something.)
    res.once('close', () => {
      if (!this.#settled) this.fail(new TypeError('terminated'));
    });
    res.once('end', () => {
      if (this.#settle(null)) this.#reader?.end();
    });
    if (empty) {
      res.resume();
      this.#settle(null);
    }
  }

  header(name: string): string | null {
    const value = this.#res.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  text(maxBytes: number): Promise<string> {
    const declared = Number(this.#res.headers['content-length']);
    if (declared > maxBytes) {
      this.#letGo();
      return Promise.reject(
        new OversizeEventError(`a body of ${declared} bytes, over ${maxBytes} (maxMessageBytes)`),
      );
    }
    if (this.#empty) return Promise.resolve('');
    return new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      let size = 0;
      this.#read({
        data: (chunk) => {
          size += chunk.length;
          if (size <= maxBytes) return void parts.push(chunk);
          this.#letGo();
          reject(new OversizeEventError(`a body over ${maxBytes} bytes (maxMessageBytes)`));
        },
        end: () => {
          const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts, size)).toString();
          // As fetch's text(): a byte order mark is not part of the text.
          resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        },
        fail: reject,
      });
    });
  }

  stream(): ReadableStream<Uint8Array> | null {
    if (this.#empty) return null;
    const res = this.#res;
    return new ReadableStream<Uint8Array>({
      start: (controller) =>
        this.#read({
          data: (chunk) => {
            controller.enqueue(chunk);
            if ((controller.desiredSize ?? 1) <= 0) res.pause();
          },
          end: () => controller.close(),
          fail: (error) => controller.error(error),
        }),
      pull: () => void res.resume(),
      cancel: () => this.#letGo(),
    });
  }

  async discard(): Promise<void> {
    this.#letGo();
  }

  /** The body breaks off (the connection, an abort): its reader fails with `error`. */
  fail(error: unknown): void {
    if (!this.#settle(error)) return;
    this.#res.destroy();
    this.#reader?.fail(error);
  }

  /** This answer as a web `Response` (for `httpFetch`). */
  response(): Response {
    const pairs: [string, string][] = [];
    const raw = this.#res.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
    try {
      return new Response(this.stream(), {
        status: this.status,
        ...(this.statusText ? { statusText: this.statusText } : {}),
        headers: pairs,
      });
    } catch (error) {
      // A status text or header the Response constructor refuses.
      this.#letGo();
      throw new TypeError(`fetch failed: ${(error as Error).message}`, { cause: error });
    }
  }

  #read(reader: BodyReader): void {
    if (this.#settled) {
      if (this.#outcome === null) reader.end();
      else reader.fail(this.#outcome);
      return;
    }
    this.#reader = reader;
    this.#res.on('data', (chunk: Buffer) => {
      if (!this.#settled) reader.data(chunk);
    });
  }

  /** Let go of the body unread or half read: the connection goes, nothing more is delivered. */
  #letGo(): void {
    if (this.#settle(new TypeError('the body was discarded'))) this.#res.destroy();
  }

  /** Marks the body settled once; whether this call did. */
  #settle(outcome: unknown): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#outcome = outcome;
    this.#release();
    return true;
  }
}
