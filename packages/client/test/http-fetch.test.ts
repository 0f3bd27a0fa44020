import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, TransportError } from '@mcp-fw/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

// On Node the Streamable HTTP transport's default exchange is node:http with keep-alive agents
// (transports/fetch-node.ts: Node's fetch costs 3 to 4 times its CPU per request), a JSON answer
// read from the IncomingMessage without a web Response. Elsewhere, and for what it does not
// cover, the global fetch serves.

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  // A held response (a stream the test left open) would keep close() waiting for its socket.
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A 2026-07-28 server answering `add`, counting the TCP connections it accepted. */
async function addServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body) as {
        id: number;
        method: string;
        params: { arguments?: { a: number; b: number } };
      };
      const result =
        message.method === 'server/discover'
          ? {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
            }
          : {
              resultType: 'complete',
              content: [
                {
                  type: 'text',
                  text: String(
                    (message.params.arguments?.a ?? 0) + (message.params.arguments?.b ?? 0),
                  ),
                },
              ],
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    connections: () => connections,
  };
}

// The two exchanges the transport reads answers through: node:http's response itself (the
// default on Node), and a web Response (a fetch given in the options, and every other runtime).
const EXCHANGES: [string, typeof fetch | undefined][] = [
  ['node:http', undefined],
  ['a web fetch', (input, init) => globalThis.fetch(input, init)],
];

describe('the HTTP transport on Node', () => {
  it('sends over node:http on keep-alive connections, not through the global fetch', async () => {
    const { url, connections } = await addServer();
    const fetchCalls: unknown[] = [];
    vi.stubGlobal('fetch', (input: unknown) => {
      fetchCalls.push(input);
      return Promise.reject(new TypeError('the global fetch was used'));
    });
    const client = await connect(url, { onWarning: () => {}, validateOutput: false });
    for (let a = 0; a < 20; a++) {
      const result = await client.callTool('add', { a, b: 1 });
      expect(result.content[0]).toEqual({ type: 'text', text: String(a + 1) });
    }
    await client.close();
    expect(fetchCalls).toEqual([]);
    // One call at a time: the connection is kept and reused, not opened per request.
    expect(connections()).toBe(1);
  });

  it('a fetch given in the options is used instead', async () => {
    const { url } = await addServer();
    let used = 0;
    const client = await connect(url, {
      onWarning: () => {},
      validateOutput: false,
      fetch: (input, init) => {
        used++;
        return globalThis.fetch(input, init);
      },
    });
    await client.callTool('add', { a: 1, b: 2 });
    await client.close();
    expect(used).toBeGreaterThanOrEqual(2);
  });

  it('a JSON body cut off mid-way fails its call with a TransportError, and the client goes on', async () => {
    let cut = true;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const message = JSON.parse(body) as { id: number; method: string };
        const text = JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result:
            message.method === 'server/discover'
              ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} }
              : { resultType: 'complete', content: [{ type: 'text', text: 'whole' }] },
        });
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(text.length),
        });
        if (message.method === 'tools/call' && cut) {
          cut = false;
          res.write(text.slice(0, 20));
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = await connect(url, { onWarning: () => {}, validateOutput: false });
    const failure = await client.callTool('x', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toContain(`Cannot reach ${url}: terminated`);
    // The next call, on a new connection, is answered.
    expect((await client.callTool('x', {})).content[0]).toEqual({ type: 'text', text: 'whole' });
    await client.close();
  });

  it('a JSON answer is read from node:http directly: no web Response is built, the global fetch is not used', async () => {
    const { url } = await addServer();
    let built = 0;
    const RealResponse = globalThis.Response;
    // A subclass counts what is built while `instanceof Response` elsewhere still holds.
    vi.stubGlobal(
      'Response',
      class extends RealResponse {
        constructor(...args: ConstructorParameters<typeof Response>) {
          super(...args);
          built++;
        }
      },
    );
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('the global fetch was used')));
    const client = await connect(url, { onWarning: () => {}, validateOutput: false });
    expect((await client.callTool('add', { a: 2, b: 3 })).content[0]).toEqual({
      type: 'text',
      text: '5',
    });
    await client.close();
    expect(built).toBe(0);
  });

  it('a call aborted while its answer is awaited over node:http rejects with the reason, and the client goes on', async () => {
    const held: ServerResponse[] = [];
    server = createServer((req, res) => {
      readJson(req).then((message) => {
        const name = (message.params as { name?: string } | undefined)?.name;
        // 'slow' is never answered: only the client's abort ends it.
        if (name === 'slow') return void held.push(res);
        json(res, {
          jsonrpc: '2.0',
          id: message.id,
          result:
            message.method === 'server/discover'
              ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} }
              : { resultType: 'complete', content: [{ type: 'text', text: 'fast' }] },
        });
      });
    });
    const url = await listen();
    const client = await connect(url, { onWarning: () => {}, validateOutput: false });
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    // The held request's connection was closed by the client: the server sees it go.
    await vi.waitFor(() => expect(held[0]?.destroyed || held[0]?.req.destroyed).toBe(true));
    expect((await client.callTool('fast', {})).content[0]).toEqual({ type: 'text', text: 'fast' });
    await client.close();
  });

  it.each(EXCHANGES)(
    'an oversize JSON body is refused with a TransportError naming maxMessageBytes, announced or not, and the client goes on (%s)',
    async (_, fetch) => {
      const big = 'x'.repeat(5000);
      server = createServer((req, res) => {
        readJson(req).then((message) => {
          if (message.method === 'server/discover')
            return json(res, {
              jsonrpc: '2.0',
              id: message.id,
              result: {
                resultType: 'complete',
                supportedVersions: ['2026-07-28'],
                capabilities: {},
              },
            });
          const name = (message.params as { name: string }).name;
          const text = JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              resultType: 'complete',
              content: [{ type: 'text', text: name === 'small' ? 'ok' : big }],
            },
          });
          if (name === 'chunked') {
            // No Content-Length: the limit is found while reading.
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write(text.slice(0, 2500));
            res.end(text.slice(2500));
            return;
          }
          json(res, text);
        });
      });
      const url = await listen();
      const client = await connect(url, {
        onWarning: () => {},
        validateOutput: false,
        maxMessageBytes: 4096,
        fetch,
      });
      for (const name of ['announced', 'chunked']) {
        const failure = await client.callTool(name, {}).catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(TransportError);
        expect((failure as Error).message).toMatch(
          new RegExp(
            `^The server answered tools/call "${name}" with a body (of \\d+ bytes, )?over 4096( bytes)? \\(maxMessageBytes\\)`,
          ),
        );
      }
      expect((await client.callTool('small', {})).content[0]).toEqual({ type: 'text', text: 'ok' });
      await client.close();
    },
  );

  it.each(EXCHANGES)(
    'on Node, an SSE answer is read, and a legacy stream broken off before the answer is resumed with GET and Last-Event-ID (%s)',
    async (_, fetch) => {
      const gets: (string | undefined)[] = [];
      server = createServer((req, res) => {
        if (req.method === 'DELETE') return void res.writeHead(200).end();
        if (req.method === 'GET') {
          const last = req.headers['last-event-id'] as string | undefined;
          gets.push(last);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (last === 'call-1')
            // The answer the broken stream owed.
            return void res.end(
              `id: call-2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: pendingId, result: { content: [{ type: 'text', text: 'resumed' }] } })}\n\n`,
            );
          // The standalone stream: an event id, then it breaks off; resumed, it carries a notification.
          if (last === undefined) return void res.end('id: standalone-1\nretry: 10\n\n');
          setTimeout(
            () =>
              res.write(
                `id: standalone-2\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`,
              ),
            50,
          );
          return;
        }
        readJson(req).then((message) => {
          if (message.id === undefined) return void res.writeHead(202).end();
          if (message.method === 'initialize') {
            res.setHeader('mcp-session-id', 'session-1');
            return json(res, {
              jsonrpc: '2.0',
              id: message.id,
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: { listChanged: true } },
                serverInfo: { name: 'sse', version: '1' },
              },
            });
          }
          const name = (message.params as { name: string }).name;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (name === 'streamed')
            return void res.end(
              `: a comment\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'streamed' }] } })}\n\n`,
            );
          // Breaks off after an event id, before the answer.
          pendingId = message.id;
          res.end('id: call-1\nretry: 10\n\n');
        });
      });
      let pendingId: unknown;
      const url = await listen();
      const client = await connect(url, {
        onWarning: () => {},
        validateOutput: false,
        protocolVersion: '2025-11-25',
        fetch,
      });
      const changed = new Promise<string>((resolve) => client.onNotification(resolve));
      expect((await client.callTool('streamed', {})).content[0]).toEqual({
        type: 'text',
        text: 'streamed',
      });
      expect((await client.callTool('broken', {})).content[0]).toEqual({
        type: 'text',
        text: 'resumed',
      });
      expect(await changed).toBe('notifications/tools/list_changed');
      expect(gets).toEqual(expect.arrayContaining([undefined, 'standalone-1', 'call-1']));
      await client.close();
    },
  );
});

async function readJson(
  req: IncomingMessage,
): Promise<{ id?: number; method: string; params?: unknown }> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body);
}

function json(res: ServerResponse, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

async function listen(): Promise<string> {
  const listening = server as Server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;
}
