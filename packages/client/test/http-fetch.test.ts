import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, TransportError } from '@mcp-fw/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

// On Node the Streamable HTTP transport's default fetch is node:http with keep-alive agents
// (transports/fetch-node.ts: Node's fetch costs 3 to 4 times its CPU per request). Elsewhere,
// and for what it does not cover, the global fetch serves.

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
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
});
