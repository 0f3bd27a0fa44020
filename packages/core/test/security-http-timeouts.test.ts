import { connect as netConnect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  serveHttp,
  SERVE_HTTP_DEFAULTS,
  type HttpServerHandle,
  type ServeHttpOptions,
} from '@mcp-fw/core/node';
import { gates, httpFixture } from './support/http-fixture.ts';
import {
  initializeBody,
  JSON_AND_SSE,
  nodeSurface,
  type Surface,
  openSession,
} from './support/http-surfaces.ts';

// Issue #15, part 6: slow clients must not hold serveHttp. The limits are made small here so
// each cut-off is seen within a second or two; the defaults are checked separately.

let served: HttpServerHandle | undefined;
let surface: Surface | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await served?.close();
  await surface?.close();
  served = undefined;
  surface = undefined;
});

async function serve(options: ServeHttpOptions): Promise<HttpServerHandle> {
  served = await serveHttp(httpFixture(), { port: 0, ...options });
  return served;
}

interface Ending {
  /** Everything the server wrote. */
  readonly text: string;
  /** From the first byte sent to the connection's close. */
  readonly elapsedMs: number;
}

/**
 * Opens a connection, writes `head` at once, then `drip` one byte every `everyMs` (forever, if
 * `forever`), and resolves when the server closes the connection.
 */
function slowClient(port: number, head: string, drip: string, everyMs: number): Promise<Ending> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    let start = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, elapsedMs: Date.now() - start });
    });
    socket.once('connect', () => {
      start = Date.now();
      socket.write(head);
      let i = 0;
      timer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return clearInterval(timer);
        socket.write(drip[i++ % drip.length]);
      }, everyMs);
    });
    setTimeout(
      () =>
        reject(new Error(`the server never closed the connection; got ${JSON.stringify(text)}`)),
      20_000,
    ).unref();
  });
}

const postHead = (length: number) =>
  `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;

describe('attacks on serveHttp timeouts and connection cap (raw sockets)', () => {
  it('a body trickled one byte a second is cut off with 408 once requestTimeoutMs passes', async () => {
    // Each byte arrives well within the idle timeout: only the total time can stop it.
    const { port } = await serve({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1500,
      bodyIdleTimeoutMs: 5000,
    });
    const ending = await slowClient(port, postHead(1_000_000), '{"jsonrpc":"2.0"', 1000);
    expect(ending.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ending.elapsedMs).toBeGreaterThanOrEqual(1400);
    expect(ending.elapsedMs).toBeLessThan(6000);
  });

  it('a body that stalls mid-way is cut off with 408 and a JSON-RPC error once bodyIdleTimeoutMs passes', async () => {
    const { port } = await serve({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 10_000,
      bodyIdleTimeoutMs: 300,
    });
    // One byte, then silence (the drip interval is longer than the whole test).
    const ending = await slowClient(port, `${postHead(100)}{`, ' ', 60_000);
    expect(ending.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ending.text).toMatch(/connection: close/i);
    const body = JSON.parse(ending.text.slice(ending.text.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Request Timeout: no part of the body arrived for 300 ms' },
    });
    expect(ending.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(ending.elapsedMs).toBeLessThan(5000);
  });

  it('headers trickled one byte at a time are cut off with 408 once headersTimeoutMs passes, before requestTimeoutMs', async () => {
    const { port } = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 5000 });
    const ending = await slowClient(
      port,
      'POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ',
      'abcdefgh',
      50,
    );
    expect(ending.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ending.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(ending.elapsedMs).toBeLessThan(4000);
  });

  it('an idle keep-alive connection is closed once keepAliveTimeoutMs passes', async () => {
    const { port } = await serve({ keepAliveTimeoutMs: 200 });
    const closed = await new Promise<{ text: string; idleMs: number }>((resolve) => {
      const socket = netConnect(port, '127.0.0.1');
      sockets.push(socket);
      let text = '';
      let answeredAt = 0;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('Not Found')) answeredAt = Date.now();
      });
      socket.on('close', () => resolve({ text, idleMs: Date.now() - answeredAt }));
      socket.write('GET /elsewhere HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    expect(closed.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(closed.idleMs).toBeGreaterThanOrEqual(150);
    expect(closed.idleMs).toBeLessThan(3000);
  });

  it('connections beyond maxConnections are closed on arrival, and served again once one is freed', async () => {
    const { port } = await serve({ maxConnections: 2 });
    const open = () =>
      new Promise<Socket>((resolve) => {
        const socket = netConnect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
        sockets.push(socket);
      });
    const held = [await open(), await open()];
    await new Promise((r) => setTimeout(r, 50));
    const extra = await open();
    const refused = await new Promise<string>((resolve) => {
      let text = '';
      extra.setEncoding('utf8');
      extra.on('data', (chunk: string) => (text += chunk));
      extra.on('close', () => resolve(text));
      extra.write('GET /elsewhere HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    expect(refused).toBe('');
    held[0].destroy();
    await new Promise((r) => setTimeout(r, 50));
    const next = await fetch(`http://127.0.0.1:${port}/elsewhere`);
    expect(next.status).toBe(404);
    await next.text();
  });
});

describe('serveHttp timeouts spare response streams', () => {
  it('an SSE stream (legacy GET /sse, a POST answered as SSE, a 2026-07-28 subscriptions/listen) stays open and delivers long after requestTimeoutMs', async () => {
    const limits = {
      headersTimeoutMs: 100,
      requestTimeoutMs: 200,
      bodyIdleTimeoutMs: 100,
      keepAliveTimeoutMs: 100,
    };
    const server = httpFixture();
    surface = await nodeSurface(server, limits);
    const listen = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: {
        ...JSON_AND_SSE,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub',
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(JSON.parse((await listen.nextEvent())!.data).method).toBe(
      'notifications/subscriptions/acknowledged',
    );
    const sse = await surface.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    const endpoint = await sse.nextEvent();
    // A Streamable HTTP call whose answer is an SSE stream that stays open until released.
    const session = await openSession(surface);
    const call = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'wait', arguments: { key: 'long-stream' }, _meta: { progressToken: 't' } },
      }),
    });
    expect(call.header('content-type')).toBe('text/event-stream');
    await new Promise((r) => setTimeout(r, 1200));
    // Both still deliver, six request timeouts later.
    const posted = await surface.send({
      method: 'POST',
      path: endpoint!.data,
      headers: { 'content-type': 'application/json' },
      body: initializeBody('2024-11-05'),
    });
    expect(posted.status).toBe(202);
    expect(JSON.parse((await sse.nextEvent())!.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05' },
    });
    server.tools.disable('echo');
    expect(JSON.parse((await listen.nextEvent())!.data).method).toBe(
      'notifications/tools/list_changed',
    );
    listen.abort();
    gates.get('long-stream')!();
    const frames: string[] = [];
    for (let e = await call.nextEvent(); e; e = await call.nextEvent())
      if (e.data) frames.push(e.data);
    expect(JSON.parse(frames.at(-1)!)).toMatchObject({
      id: 9,
      result: { content: [{ type: 'text', text: 'released long-stream' }] },
    });
    sse.abort();
  });
});

describe('serveHttp limits by default', () => {
  it('sets finite header, request, body-idle and keep-alive timeouts and a connection cap', async () => {
    const handle = await serve({});
    expect({
      headersTimeout: handle.httpServer.headersTimeout,
      requestTimeout: handle.httpServer.requestTimeout,
      keepAliveTimeout: handle.httpServer.keepAliveTimeout,
      maxConnections: handle.httpServer.maxConnections,
    }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      maxConnections: 1024,
    });
    expect(SERVE_HTTP_DEFAULTS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1024,
    });
    // Node's own socket inactivity timeout stays off, or quiet SSE streams would be cut.
    expect(handle.httpServer.timeout).toBe(0);
  });

  it('refuses limits that are not whole numbers ≥ 0, and a header timeout above the request timeout', async () => {
    await expect(serveHttp(httpFixture(), { port: 0, requestTimeoutMs: -1 })).rejects.toThrow(
      'serveHttp: requestTimeoutMs must be a whole number ≥ 0 (0 turns it off), got -1',
    );
    await expect(serveHttp(httpFixture(), { port: 0, maxConnections: 1.5 })).rejects.toThrow(
      TypeError,
    );
    await expect(
      serveHttp(httpFixture(), { port: 0, headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 }),
    ).rejects.toThrow(
      'serveHttp: headersTimeoutMs (20000) must not exceed requestTimeoutMs (10000): the request timeout includes the headers',
    );
  });
});
