import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { WireConnection } from './http-wire.js';

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';

/**
 * Which 2026-07-28 request envelope the benchmarks send (`BENCH_ERAS_ENVELOPE`): `minimal`, the
 * version and empty client capabilities; or `official`, what the official client 2.x sends on
 * every request (client info, capabilities, log level and a new progress token each time, as in
 * vendor/wire/stdio-modern.jsonl).
 */
export const envelopeKind: 'minimal' | 'official' =
  process.env.BENCH_ERAS_ENVELOPE === 'official' ? 'official' : 'minimal';

const MINIMAL_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The envelope of request `id`, in the client's key order. */
export function envelope(id: number): Record<string, unknown> {
  if (envelopeKind === 'minimal') return MINIMAL_ENVELOPE;
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'era-driver', version: '0.0.1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    'io.modelcontextprotocol/logLevel': 'debug',
    progressToken: id,
  };
}

/**
 * The `_meta` the same client puts on a legacy `tools/call`. The official client sends a progress
 * token there in both eras (vendor/wire/stdio-legacy.jsonl: `"_meta":{"progressToken":3}`),
 * so with the `official` envelope the legacy side carries one too and the two eras differ only by
 * the envelope's members; the minimal client sends none.
 */
export function legacyMeta(id: number): { _meta?: { progressToken: number } } {
  return envelopeKind === 'minimal' ? {} : { _meta: { progressToken: id } };
}

/**
 * The headers of every request the official client sends over `fetch` (Node's undici): its own
 * (vendor/wire/http-sessionful-legacy.jsonl) plus the ones undici adds, which a server parses
 * whether it reads them or not.
 */
const CLIENT_HEADERS = {
  connection: 'keep-alive',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};
const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...CLIENT_HEADERS,
};

export interface HttpReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Message {
  id?: number;
  result?: Record<string, unknown>;
  error?: unknown;
}

let nextId = 1;

/** One keep-alive connection; the lean client pipelines, node:http's queues. */
export interface Connection {
  send(
    method: 'POST' | 'DELETE',
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpReply>;
  close(): void;
}

/** `BENCH_HTTP_CLIENT=node` measures with node:http's client instead of the lean one. */
export const clientKind = process.env.BENCH_HTTP_CLIENT === 'node' ? 'node:http' : 'wire';

/**
 * A connection to `url`. A server that wants a bearer token announces it in the URL's fragment
 * (`#bearer=…`, never sent on the wire): every request then carries `Authorization: Bearer …`.
 */
export function openConnection(url: string): Connection {
  const [target, fragment] = url.split('#');
  const connection =
    clientKind === 'node:http' ? new HttpConnection(target) : new WireConnection(target);
  const bearer = fragment?.startsWith('bearer=')
    ? `Bearer ${fragment.slice('bearer='.length)}`
    : undefined;
  if (!bearer) return connection;
  return {
    send: (method, headers, body) =>
      connection.send(method, { ...headers, authorization: bearer }, body),
    close: () => connection.close(),
  };
}

/**
 * A node:http Agent allowed a single socket, so every request of a session travels on the same
 * TCP connection (a cross-check of the lean client: `BENCH_HTTP_CLIENT=node`).
 */
export class HttpConnection implements Connection {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  readonly #target: { host: string; port: number; path: string };

  constructor(url: string) {
    const { hostname, port, pathname } = new URL(url);
    this.#target = { host: hostname, port: Number(port), path: pathname };
  }

  send(
    method: 'POST' | 'DELETE',
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpReply> {
    return new Promise((resolve, reject) => {
      const all =
        body === undefined
          ? headers
          : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = request({ ...this.#target, method, headers: all, agent: this.#agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** The message answering `id`: the JSON body, or the SSE event that carries it. */
function answerTo(reply: HttpReply, id: number): Message {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
  if (!String(reply.headers['content-type']).startsWith('text/event-stream'))
    return JSON.parse(reply.body) as Message;
  for (const line of reply.body.split('\n')) {
    if (!line.startsWith('data:') || line.length < 7) continue;
    const message = JSON.parse(line.slice(5)) as Message;
    if (message.id === id) return message;
  }
  throw new Error(`no answer to ${id} in ${reply.body.slice(0, 300)}`);
}

function resultOf(reply: HttpReply, id: number): Record<string, unknown> {
  const message = answerTo(reply, id);
  if (message.error !== undefined || !message.result)
    throw new Error(`error answer: ${JSON.stringify(message.error)}`);
  return message.result;
}

let operand = 0;

/** The arguments of one `add` call and a check of its answer, so a fast wrong server cannot win. */
function addCall(): {
  args: { a: number; b: number };
  check(result: Record<string, unknown>): void;
} {
  const a = operand++;
  return {
    args: { a, b: 2 },
    check(result) {
      const content = result.content as { type: string; text: string }[] | undefined;
      if (content?.[0]?.type !== 'text' || content[0].text !== String(a + 2)) {
        throw new Error(`add(${a}, 2) answered ${JSON.stringify(result)}`);
      }
    },
  };
}

/** A legacy (2025-11-25) Streamable HTTP session on its own connection. */
export class LegacySession {
  #headers: Record<string, string> = {};

  private constructor(
    readonly connection: Connection,
    readonly id: string,
  ) {
    this.#headers = { ...POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
  }

  /** initialize, then notifications/initialized; `initMs` is the initialize round trip. */
  static async open(connection: Connection): Promise<{ session: LegacySession; initMs: number }> {
    const id = nextId++;
    const params = {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'mcp-fw-bench', version: '1.0.0' },
    };
    const started = performance.now();
    const reply = await connection.send(
      'POST',
      POST_HEADERS,
      JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params }),
    );
    const initMs = performance.now() - started;
    const result = resultOf(reply, id);
    const sessionId = reply.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') throw new Error('initialize: no Mcp-Session-Id');
    if (result.protocolVersion !== LEGACY)
      throw new Error(`initialize negotiated ${String(result.protocolVersion)}`);
    const session = new LegacySession(connection, sessionId);
    const ack = await connection.send(
      'POST',
      session.#headers,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    if (ack.status !== 202 && ack.status !== 200)
      throw new Error(`notifications/initialized: HTTP ${ack.status}`);
    return { session, initMs };
  }

  /** One checked `add` call. */
  async add(): Promise<void> {
    const id = nextId++;
    const call = addCall();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'add', arguments: call.args, ...legacyMeta(id) },
    });
    call.check(resultOf(await this.connection.send('POST', this.#headers, body), id));
  }

  /** Ends the session (DELETE). */
  async close(): Promise<void> {
    const reply = await this.connection.send('DELETE', {
      'mcp-session-id': this.id,
      'mcp-protocol-version': LEGACY,
      ...CLIENT_HEADERS,
    });
    if (reply.status !== 200) throw new Error(`DELETE: HTTP ${reply.status}`);
  }
}

const MODERN_ADD_HEADERS = {
  ...POST_HEADERS,
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};

/** One checked stateless 2026-07-28 `add` call: the envelope in `_meta`, mirrored in headers. */
export async function modernAdd(connection: Connection): Promise<void> {
  const id = nextId++;
  const call = addCall();
  const params = { name: 'add', arguments: call.args, _meta: envelope(id) };
  const result = resultOf(
    await connection.send(
      'POST',
      MODERN_ADD_HEADERS,
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    ),
    id,
  );
  if (result.resultType !== 'complete')
    throw new Error(`modern add answered ${JSON.stringify(result)}`);
  call.check(result);
}
