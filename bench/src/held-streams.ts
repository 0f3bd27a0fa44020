// The client side of the ten-thousand-streams benchmark: thousands of SSE streams held open on
// raw sockets, one per connection, each counting the list_changed events it receives. Raw
// sockets and a byte search keep the harness's own cost per stream small: it shares 2 CPUs with
// the server it measures.
import { connect, type Socket } from 'node:net';
import { LEGACY, MODERN } from './http-client.js';
import { parseResponse } from './http-wire.js';

const CRLF2 = Buffer.from('\r\n\r\n');
const CHANGED = Buffer.from('notifications/tools/list_changed');
const ACKNOWLEDGED = Buffer.from('notifications/subscriptions/acknowledged');
const ACCEPT = 'application/json, text/event-stream';

/** Which kind of stream: a legacy session's GET stream, or a 2026-07-28 listen stream. */
export type StreamKind = 'legacy-get' | 'listen';

/** Every list_changed event any held stream received, and when the last one arrived. */
export const arrivals = { count: 0, lastAt: 0, firstAt: 0 };

function request(url: URL, method: string, headers: Record<string, string>, body = ''): string {
  let head = `${method} ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
  if (method !== 'GET') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  return `${head}\r\n${body}`;
}

/** One open stream; `close()` drops its connection. */
export class HeldStream {
  private constructor(private readonly socket: Socket) {}

  /** Opens a stream of `kind` on a new connection to `url`; resolves once the server holds it. */
  static open(url: URL, kind: StreamKind, id: number): Promise<HeldStream> {
    const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    return new Promise<HeldStream>((resolve, reject) => {
      let buffer: Buffer = Buffer.alloc(0);
      let step: 'initialize' | 'initialized' | 'stream-head' | 'acknowledged' | 'held' =
        kind === 'legacy-get' ? 'initialize' : 'stream-head';
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      socket.once('error', fail);
      socket.on('data', (chunk: Buffer) => {
        if (step === 'held') return count(chunk);
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          if (step === 'initialize' || step === 'initialized') {
            const parsed = parseResponse(buffer);
            if (!parsed) return;
            buffer = buffer.subarray(parsed.length);
            const { status, headers } = parsed.reply;
            if (step === 'initialize') {
              const session = headers['mcp-session-id'];
              if (status !== 200 || typeof session !== 'string')
                return fail(
                  new Error(`initialize: HTTP ${status} ${parsed.reply.body.slice(0, 300)}`),
                );
              step = 'initialized';
              const common = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
              const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
              // Pipelined: the acknowledgement, then the GET that becomes the stream.
              socket.write(
                request(
                  url,
                  'POST',
                  { ...common, 'content-type': 'application/json', accept: ACCEPT },
                  note,
                ) + request(url, 'GET', { ...common, accept: 'text/event-stream' }),
              );
              continue;
            }
            if (status !== 202 && status !== 200)
              return fail(new Error(`notifications/initialized: HTTP ${status}`));
            step = 'stream-head';
            continue;
          }
          if (step === 'stream-head') {
            const end = buffer.indexOf(CRLF2);
            if (end === -1) return;
            const head = buffer.toString('latin1', 0, end);
            if (!/^HTTP\/1\.1 200 /.test(head) || !/content-type: text\/event-stream/i.test(head))
              return fail(
                new Error(
                  `${kind} stream refused: ${head.split('\r\n')[0]} ${buffer.toString('utf8', end, end + 300)}`,
                ),
              );
            buffer = buffer.subarray(end + 4);
            step = kind === 'listen' ? 'acknowledged' : 'held';
            if (step === 'held') {
              socket.off('error', fail);
              socket.on('error', () => {});
              resolve(new HeldStream(socket));
              if (buffer.length > 0) count(buffer);
              return;
            }
            continue;
          }
          if (step === 'acknowledged') {
            const at = buffer.indexOf(ACKNOWLEDGED);
            if (at === -1) return;
            step = 'held';
            socket.off('error', fail);
            socket.on('error', () => {});
            resolve(new HeldStream(socket));
            const rest = buffer.subarray(at + ACKNOWLEDGED.length);
            if (rest.length > 0) count(rest);
            return;
          }
        }
      });
      socket.once('connect', () => {
        if (kind === 'legacy-get') {
          const params = {
            protocolVersion: LEGACY,
            capabilities: {},
            clientInfo: { name: 'mcp-fw-bench', version: '1.0.0' },
          };
          const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params });
          socket.write(
            request(url, 'POST', { 'content-type': 'application/json', accept: ACCEPT }, body),
          );
        } else {
          const params = {
            notifications: { toolsListChanged: true },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          };
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'subscriptions/listen',
            params,
          });
          socket.write(
            request(
              url,
              'POST',
              {
                'content-type': 'application/json',
                accept: ACCEPT,
                'mcp-protocol-version': MODERN,
                'mcp-method': 'subscriptions/listen',
              },
              body,
            ),
          );
        }
      });
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

// An event is written in one piece, so its method name arrives contiguous in one chunk of
// the stream's body (chunked framing sits between writes, not inside one).
function count(chunk: Buffer): void {
  let at = chunk.indexOf(CHANGED);
  while (at !== -1) {
    const now = performance.now();
    if (arrivals.count === 0) arrivals.firstAt = now;
    arrivals.count++;
    arrivals.lastAt = now;
    at = chunk.indexOf(CHANGED, at + CHANGED.length);
  }
}

/** Opens `n` streams, `parallel` at a time; resolves with all of them held. */
export async function openStreams(
  url: string,
  kind: StreamKind,
  n: number,
  parallel = 128,
): Promise<HeldStream[]> {
  const target = new URL(url);
  const held: HeldStream[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const id = next++;
      held.push(await HeldStream.open(target, kind, id + 1));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, n) }, worker));
  } catch (error) {
    for (const stream of held) stream.close();
    throw error;
  }
  return held;
}
