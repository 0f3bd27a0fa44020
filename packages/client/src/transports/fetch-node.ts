import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

// The `#http-fetch` variant for Node (package.json `imports`): the Streamable HTTP transport's
// default fetch, over node:http with keep-alive agents. Node's own fetch (undici) costs 3 to 4
// times the CPU of a node:http request per call (bench/README.md, "The client"), which is most
// of the client's CPU per call over HTTP. What it returns is a web `Response` whose body streams
// the node:http response, so the transport reads JSON bodies, SSE streams, size limits and
// aborts exactly as it does from `fetch`. Anything this does not cover (another runtime
// posing as Node, a `Request` object, a body that is not a string, a redirect, a scheme other
// than http(s)) goes to the global fetch, unchanged.

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

/** A fetch for the Streamable HTTP transport: node:http on Node, the global fetch elsewhere. */
export const httpFetch: typeof fetch = (input, init) =>
  covered(input, init)
    ? nodeFetch(input as string | URL, init ?? {})
    : globalThis.fetch(input, init);

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

function nodeFetch(input: string | URL, init: RequestInit): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const url = typeof input === 'string' ? new URL(input) : input;
  const headers = plainHeaders(init.headers);
  const body = init.body as string | null | undefined;
  if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
  const method = init.method ?? 'GET';
  const https = url.protocol === 'https:';
  return new Promise<Response>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: https ? httpsAgent : httpAgent,
    });
    let response: IncomingMessage | undefined;
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    let settled = false;
    // Once the body ended, errored or was cancelled: nothing more goes to its stream.
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) stream?.close();
      else stream?.error(error);
    };
    const onAbort = () => {
      const reason = signal?.reason;
      req.destroy();
      response?.destroy();
      if (response === undefined) reject(reason);
      finish(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // `on`, not `once`: a second 'error' without a listener would be thrown.
    req.on('error', (error) => {
      if (response !== undefined || settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError(`fetch failed: ${error.message}`, { cause: error }));
    });
    req.once('response', (res) => {
      response = res;
      const status = res.statusCode ?? 0;
      if (REDIRECT.has(status) && res.headers.location !== undefined) {
        // Rare for an MCP endpoint: the global fetch follows it as fetch does.
        res.on('error', () => {});
        res.resume();
        finish();
        resolve(globalThis.fetch(input, init));
        return;
      }
      const pairs: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      const empty = NULL_BODY.has(status) || method === 'HEAD';
      if (empty) {
        res.on('error', () => {});
        res.resume();
        finish();
      }
      const stream$ = empty
        ? null
        : new ReadableStream<Uint8Array>({
            start(controller) {
              stream = controller;
              res.on('data', (chunk: Buffer) => {
                if (settled) return;
                controller.enqueue(chunk);
                if ((controller.desiredSize ?? 1) <= 0) res.pause();
              });
              res.once('end', () => finish());
              res.on('error', (error) => finish(new TypeError('terminated', { cause: error })));
              // A connection that closes before the end: the body fails, as fetch's does.
              res.once('close', () => finish(new TypeError('terminated')));
            },
            pull() {
              res.resume();
            },
            cancel() {
              // The stream is closed already: nothing more is enqueued, closed or failed.
              settled = true;
              signal?.removeEventListener('abort', onAbort);
              res.destroy();
            },
          });
      try {
        resolve(
          new Response(stream$, {
            status,
            ...(res.statusMessage ? { statusText: res.statusMessage } : {}),
            headers: pairs,
          }),
        );
      } catch (error) {
        // A status the Response constructor refuses (outside 200–599).
        res.destroy();
        finish(error);
        reject(new TypeError(`fetch failed: HTTP ${status}`, { cause: error }));
      }
    });
    req.end(body ?? undefined);
  });
}
