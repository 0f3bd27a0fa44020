import { request as httpRequest } from 'node:http';
import type { McpFwServer } from '@mcp-fw/core';
import { createHttpHandler, type HttpEndpointOptions } from '@mcp-fw/core/http';
import { serveHttp, type ServeHttpOptions } from '@mcp-fw/core/node';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Aborting drops the connection, even before the response started. */
  signal?: AbortSignal;
}

/** A response whose body can be read whole or event by event (SSE). */
export interface RawResponse {
  status: number;
  header(name: string): string | undefined;
  text(): Promise<string>;
  /** The next SSE event's fields, or undefined at the end of the stream. */
  nextEvent(): Promise<{ id?: string; event?: string; data: string; retry?: string } | undefined>;
  /** Drops the connection (as a client losing it would). */
  abort(): void;
}

/** One way of reaching the same endpoint: the web-standard handler, or a real node:http server. */
export interface Surface {
  readonly name: string;
  send(req: RawRequest): Promise<RawResponse>;
  close(): Promise<void>;
  sessionCount(): number;
  sweep(now: number): number;
}

export const LOCAL = { host: '127.0.0.1' };

export async function fetchSurface(
  server: McpFwServer,
  options: HttpEndpointOptions = {},
): Promise<Surface> {
  const handler = createHttpHandler(server, options);
  return {
    name: 'fetch handler',
    async send(req) {
      const headers = new Headers({ host: 'localhost', ...req.headers });
      const controller = new AbortController();
      req.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      const response = await handler.fetch(
        new Request(`http://${headers.get('host')}${req.path}`, {
          method: req.method,
          headers,
          body: req.body,
          signal: controller.signal,
        }),
      );
      return fromChunks(
        response.status,
        (n) => response.headers.get(n) ?? undefined,
        readerChunks(response.body),
        () => controller.abort(),
      );
    },
    close: () => handler.close(),
    sessionCount: () => handler.endpoint.sessionCount,
    sweep: (now) => handler.endpoint.sweep(now),
  };
}

export async function nodeSurface(
  server: McpFwServer,
  options: Omit<ServeHttpOptions, 'port'> = {},
): Promise<Surface> {
  const handle = await serveHttp(server, { ...options, port: 0 });
  return {
    name: 'node:http server',
    send(req) {
      return new Promise((resolve, reject) => {
        const outgoing = httpRequest(
          {
            host: '127.0.0.1',
            port: handle.port,
            method: req.method,
            path: req.path,
            headers: { host: `localhost:${handle.port}`, ...req.headers },
          },
          (incoming) => {
            const chunks = (async function* () {
              for await (const chunk of incoming) yield (chunk as Buffer).toString('utf8');
            })();
            resolve(
              fromChunks(
                incoming.statusCode ?? 0,
                (n) => headerValue(incoming.headers[n]),
                chunks,
                () => outgoing.destroy(),
              ),
            );
          },
        );
        outgoing.on('error', reject);
        req.signal?.addEventListener('abort', () => outgoing.destroy(), { once: true });
        outgoing.end(req.body);
      });
    },
    close: () => handle.close(),
    sessionCount: () => handle.handler.endpoint.sessionCount,
    sweep: (now) => handle.handler.endpoint.sweep(now),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

async function* readerChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<string> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield decoder.decode(value, { stream: true });
    }
  } catch {
    return;
  }
}

function fromChunks(
  status: number,
  header: (name: string) => string | undefined,
  chunks: AsyncGenerator<string>,
  abort: () => void,
): RawResponse {
  let buffer = '';
  let ended = false;
  const pull = async () => {
    const next = await chunks.next().catch(() => ({ done: true as const, value: undefined }));
    if (next.done) ended = true;
    else buffer += next.value;
  };
  return {
    status,
    header,
    abort,
    async text() {
      while (!ended) await pull();
      return buffer;
    },
    async nextEvent() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: { id?: string; event?: string; data: string; retry?: string } = { data: '' };
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') event.data += value;
            else if (field === 'id' || field === 'event' || field === 'retry') event[field] = value;
          }
          return event;
        }
        if (ended) return undefined;
        await pull();
      }
    },
  };
}

export const SURFACES = [
  ['fetch handler', fetchSurface],
  ['node:http server', nodeSurface],
] as const;

export const JSON_AND_SSE = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export function initializeBody(
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
  id: number | string = 1,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities, clientInfo: { name: 'http-test', version: '1.0.0' } },
  });
}

/**
 * Opens a legacy session on `surface` (`initialize` POSTed with {@link initializeBody}'s
 * arguments, and `headers` added) and answers its `Mcp-Session-Id`, the answer's body read.
 */
export async function openSession(
  surface: Surface,
  protocolVersion?: string,
  capabilities?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<string> {
  const init = await surface.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, ...headers },
    body: initializeBody(protocolVersion, capabilities),
  });
  const session = init.header('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`initialize was answered ${init.status} without a session id`);
  return session;
}
