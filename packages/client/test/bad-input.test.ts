import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connect, RequestTimeoutError, TransportError } from '@mcp-fw/client';
import { afterEach, describe, expect, it } from 'vitest';

// Servers that misbehave: each gives a typed error naming what went wrong, and nothing hangs
// past its timeout.

const MISBEHAVING = fileURLToPath(
  new URL('./fixtures/misbehaving-stdio-server.mjs', import.meta.url),
);
const misbehaving = (mode: string) => ({ command: process.execPath, args: [MISBEHAVING, mode] });
const quiet = { onWarning: () => {}, validateOutput: false };

describe('a misbehaving server over stdio', () => {
  it('a server answering garbage: the call times out, and the error quotes what it sent instead', async () => {
    const warnings: string[] = [];
    const client = await connect(misbehaving('garbage'), {
      ...quiet,
      onWarning: (w) => warnings.push(w),
    });
    const failure = await client.callTool('x', {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect((failure as Error).message).toContain(
      `tools/call "x" got no answer within 300 ms (timeoutMs); the client cancelled it; meanwhile the server wrote 2 thing(s) on stdout that are not JSON-RPC messages, the last: a line that is not JSON-RPC: '{"half":'`,
    );
    expect(warnings[0]).toBe(
      "The server wrote a line that is not JSON-RPC: 'Server started on port 3000!' on stdout; ignored",
    );
    await client.close();
  });

  it('an answer to an id never asked is ignored; the real answer still arrives', async () => {
    const client = await connect(misbehaving('wrong-id'), quiet);
    const result = await client.callTool('x', {});
    expect(result.content[0].text).toBe('yours');
    await client.close();
  });

  it('a server that never answers: a RequestTimeoutError after timeoutMs, and the server is told to stop', async () => {
    const stderr: string[] = [];
    const client = await connect(misbehaving('silent'), {
      ...quiet,
      timeoutMs: 250,
      stdio: { onStderr: (line) => stderr.push(line) },
    });
    const started = Date.now();
    await expect(client.callTool('x', {})).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    await until(() => stderr.length > 0);
    expect(stderr[0]).toMatch(
      /^cancelled \d+: tools\/call "x" got no answer within 250 ms \(timeoutMs\)/,
    );
    await client.close();
  });

  it('a server that dies mid-call: a TransportError with its exit code and the end of its stderr', async () => {
    const client = await connect(misbehaving('dies'), quiet);
    const failure = await client.callTool('x', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toMatch(
      /^The server process ".*misbehaving-stdio-server\.mjs dies" exited with code 3; its stderr ended with: fatal: the database is gone$/,
    );
    // Later calls fail at once with the same cause.
    await expect(client.listTools()).rejects.toThrow('exited with code 3');
    await client.close();
  });

  it('an oversize message is discarded as it streams in; the timeout names it', async () => {
    const client = await connect(misbehaving('huge'), {
      ...quiet,
      stdio: { maxMessageBytes: 1024 * 1024 },
    });
    const failure = await client.callTool('x', {}, { timeoutMs: 1500 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect((failure as Error).message).toMatch(
      /the last: a message of \d+ bytes, over the limit of 1048576 \(maxMessageBytes\)$/,
    );
    await client.close();
  });

  it('a command that cannot start fails the connection, naming it', async () => {
    const failure = await connect({ command: 'no-such-mcp-server-xyz' }, quiet).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toContain('Cannot run the server "no-such-mcp-server-xyz"');
  });
});

describe('a misbehaving server over HTTP', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const open = server;
    server = undefined;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });

  /** A raw HTTP server: `answer` sees each request's parsed JSON-RPC body. */
  async function rawServer(
    answer: (
      message: { id?: number; method?: string },
      res: ServerResponse,
      req: IncomingMessage,
    ) => void,
  ): Promise<string> {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => answer(body ? JSON.parse(body) : {}, res, req));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  /** A 2026-07-28 server/discover answer (no tools capability: calls go out without a listing). */
  function discovered(message: { id?: number }, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} },
      }),
    );
  }

  it('a body that is not JSON-RPC is a TransportError quoting it', async () => {
    const url = await rawServer((message, res) => {
      if (message.method === 'server/discover') return discovered(message, res);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Welcome to nginx!</html>');
    });
    const client = await connect(url, quiet);
    const failure = await client.callTool('x', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toBe(
      'The server answered tools/call "x" with a body that is not its JSON-RPC response (HTTP 200, text/html): <html>Welcome to nginx!</html>',
    );
    await client.close();
  });

  it('HTTP 500 fails the connection naming the status; it is not taken for an older server', async () => {
    const url = await rawServer((_message, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('upstream exploded');
    });
    const failure = await connect(url, quiet).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ status: 500 });
    expect((failure as Error).message).toBe(
      `HTTP 500 Internal Server Error from POST ${url} (server/discover): upstream exploded`,
    );
  });

  it('a stream dropped mid-call is a TransportError naming the call, not a hang', async () => {
    const url = await rawServer((message, res) => {
      if (message.method === 'server/discover') return discovered(message, res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p0', progress: 1 } })}\n\n`,
      );
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const client = await connect(url, quiet);
    const failure = await client
      .callTool('x', {}, { onProgress: () => {} })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toBe(
      'The server closed the response stream of tools/call "x" before answering it',
    );
    await client.close();
  });

  it('never answering: a RequestTimeoutError, and the 2026-07-28 request stream is closed (the cancel)', async () => {
    let closedByClient = false;
    const url = await rawServer((message, res, req) => {
      if (message.method === 'server/discover') return discovered(message, res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      req.socket.on('close', () => (closedByClient = true));
    });
    const client = await connect(url, quiet);
    await expect(client.callTool('x', {}, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    await until(() => closedByClient);
    await client.close();
  });

  it('an oversize JSON body fails its call with a TransportError, unread past the limit', async () => {
    const url = await rawServer((message, res) => {
      if (message.method === 'server/discover') return discovered(message, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] },
        }),
      );
    });
    const client = await connect(url, { ...quiet, maxMessageBytes: 100_000 });
    const failure = await client.callTool('x', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toMatch(
      /^The server answered tools\/call "x" with a body (of \d+ bytes, )?over 100000( bytes)? \(maxMessageBytes\); refused$/,
    );
    await client.close();
  });

  it('an oversize SSE event fails its call with a TransportError', async () => {
    const url = await rawServer((message, res) => {
      if (message.method === 'server/discover') return discovered(message, res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const data = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'é'.repeat(60_000) }] },
      });
      res.end(`data: ${data}\n\n`);
    });
    const client = await connect(url, { ...quiet, maxMessageBytes: 100_000 });
    const failure = await client.callTool('x', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toBe(
      'The server sent an SSE event over 100000 bytes (maxMessageBytes) on the stream of tools/call "x"; refused',
    );
    await client.close();
  });

  it('an unreachable server is a TransportError naming the URL', async () => {
    const url = await rawServer(() => {});
    server?.close();
    server = undefined;
    const failure = await connect(url, quiet).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toContain(`Cannot reach ${url}`);
  });
});

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
