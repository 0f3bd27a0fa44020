import { connect as netConnect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '@mcp-fw/core/http';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { aborted, gates, httpFixture } from './support/http-fixture.ts';
import {
  initializeBody,
  JSON_AND_SSE,
  nodeSurface,
  SURFACES,
  type RawResponse,
  type Surface,
} from './support/http-surfaces.ts';

// Issue #15, parts 6 (HTTP hygiene): each test is named after the attack it replays.

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

let surface: Surface | undefined;
let served: HttpServerHandle | undefined;
afterEach(async () => {
  await surface?.close();
  await served?.close();
  surface = undefined;
  served = undefined;
});

function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    ...JSON_AND_SSE,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

const workCall = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'work', arguments: { steps: 2 }, _meta: { ...ENVELOPE, progressToken: 'p' } },
  });

async function open(s: Surface): Promise<string> {
  const res = await s.send({
    method: 'POST',
    path: '/mcp',
    headers: JSON_AND_SSE,
    body: initializeBody('2025-11-25'),
  });
  await res.text();
  const session = res.header('mcp-session-id')!;
  await post(s, session, { jsonrpc: '2.0', method: 'notifications/initialized' }).then((r) =>
    r.text(),
  );
  return session;
}

function post(s: Surface, session: string, body: unknown): Promise<RawResponse> {
  return s.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
    body: JSON.stringify(body),
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/** Sends raw bytes on a fresh connection; resolves with everything the server wrote before closing. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // One whole response is enough: its body is as long as Content-Length says.
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, head));
      if (head >= 0 && length && text.length >= head + 4 + Number(length[1])) socket.end();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe.each(SURFACES)('attacks on HTTP hygiene (%s)', (_name, make) => {
  it('a 2026-07-28 request with `Accept: application/json` is refused 406, never answered with text/event-stream when the tool reports progress', async () => {
    surface = await make(httpFixture());
    const jsonOnly = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...modernHeaders('tools/call', 'work'), accept: 'application/json' },
      body: workCall(1),
    });
    expect(jsonOnly.status).toBe(406);
    expect(jsonOnly.header('content-type')).toBe('application/json');
    expect(JSON.parse(await jsonOnly.text())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32000,
        message: 'Not Acceptable: Accept must include application/json and text/event-stream',
      },
    });
    // Nor with no Accept, nor with text/event-stream weighted q=0 (RFC 9110 §12.4.2: "not acceptable").
    for (const accept of [undefined, 'application/json, text/event-stream;q=0']) {
      const headers = modernHeaders('tools/call', 'work');
      if (accept === undefined) delete (headers as Record<string, string | undefined>).accept;
      else headers.accept = accept;
      const res = await surface.send({ method: 'POST', path: '/mcp', headers, body: workCall(2) });
      expect({ accept, status: res.status }).toEqual({ accept, status: 406 });
      await res.text();
    }
    // A client that lists both (wildcards count) still gets its progress on SSE.
    const both = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...modernHeaders('tools/call', 'work'), accept: 'application/*, text/*' },
      body: workCall(3),
    });
    expect(both.status).toBe(200);
    expect(both.header('content-type')).toBe('text/event-stream');
    expect(await both.text()).toContain('"did 2"');
  });

  it('a cancelled legacy POST is closed as an empty SSE stream (200, no response), never with 202 and no body', async () => {
    surface = await make(httpFixture());
    const session = await open(surface);
    const call = post(surface, session, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'wait', arguments: { key: 'cancel-me' } },
    });
    await until(() => gates.has('cancel-me'), 'the call to start');
    // While the call is still pending the POST has no response headers yet (auto mode).
    const cancel = await post(surface, session, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'user' },
    });
    expect(cancel.status).toBe(202);
    const response = await call;
    expect(aborted.has('cancel-me')).toBe(true);
    // 202 means "notification accepted"; a request POST is answered JSON or SSE, and a cancelled
    // request gets no response at all: so an SSE stream that ends with no event.
    expect(response.status).toBe(200);
    expect(response.header('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('');
    // The session keeps serving.
    const next = await post(surface, session, {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'after' } },
    });
    expect(JSON.parse(await next.text()).result.content[0].text).toBe('after');
  });

  it('a cancelled legacy POST in `json` response mode is not answered 202 either', async () => {
    surface = await make(httpFixture(), { responseMode: 'json' });
    const session = await open(surface);
    const call = post(surface, session, {
      jsonrpc: '2.0',
      id: 'j',
      method: 'tools/call',
      params: { name: 'wait', arguments: { key: 'cancel-json' } },
    });
    await until(() => gates.has('cancel-json'), 'the call to start');
    await post(surface, session, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'j' },
    }).then((r) => r.text());
    const response = await call;
    expect(response.status).toBe(200);
    expect(response.header('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('');
  });

  it('`application/json-patch+json` on /mcp is refused 415; parameters and letter case of application/json are fine', async () => {
    surface = await make(httpFixture());
    for (const type of [
      'application/json-patch+json',
      'application/jsonx',
      'application/json+x',
      'text/json',
      'application/x-json',
      'application/json,text/plain',
    ]) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, 'content-type': type },
        body: initializeBody(),
      });
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
      expect(JSON.parse(await res.text()).error.message).toBe(
        `Unsupported Media Type: Content-Type must be application/json (got ${JSON.stringify(type)})`,
      );
    }
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      ' application/json ;charset=UTF-8',
    ]) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, 'content-type': type },
        body: initializeBody(),
      });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
      await res.text();
    }
  });

  it('any content type on /messages (legacy HTTP+SSE) is refused 415; application/json is accepted', async () => {
    surface = await make(httpFixture());
    const sse = await surface.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    const endpoint = await sse.nextEvent();
    expect(endpoint?.event).toBe('endpoint');
    for (const type of [
      'text/plain',
      'application/json-patch+json',
      'application/x-www-form-urlencoded',
      undefined,
    ]) {
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      const res = await surface.send({
        method: 'POST',
        path: endpoint!.data,
        headers,
        body: initializeBody('2024-11-05'),
      });
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
      expect(JSON.parse(await res.text()).error.code).toBe(-32000);
    }
    // Nothing refused reached the session: the first message it sees is this initialize.
    const accepted = await surface.send({
      method: 'POST',
      path: endpoint!.data,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: initializeBody('2024-11-05'),
    });
    expect(accepted.status).toBe(202);
    const answer = await sse.nextEvent();
    expect(JSON.parse(answer!.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05' },
    });
    sse.abort();
  });
});

describe('attacks on HTTP hygiene (fetch handler)', () => {
  it('a chunked body (no Content-Length) far over maxBodyBytes is refused 413 without being buffered whole', async () => {
    const limit = 64 * 1024;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let pulled = 0;
    // 64 MiB on offer, produced only as it is read.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 64 * 1024 * 1024) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const handler = createHttpHandler(httpFixture(), { maxBodyBytes: limit });
    const response = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: JSON_AND_SSE,
        body,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' }),
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      `Payload Too Large: the body exceeds ${limit} bytes`,
    );
    expect(pulled).toBeLessThanOrEqual(limit + 4 * chunk.byteLength);
    await handler.close();
  });
});

describe('attacks on HTTP hygiene (raw sockets against serveHttp)', () => {
  it('`Host: localhost:x@evil.com` is refused 400 (malformed), not read as localhost (fetch runtimes cannot even build such a request)', async () => {
    surface = await nodeSurface(httpFixture());
    for (const host of [
      'localhost:x@evil.com',
      'localhost:80@evil.com',
      'localhost/evil',
      'localhost:99999999',
      'local host',
    ]) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, host },
        body: initializeBody(),
      });
      const body = JSON.parse(await res.text());
      expect({ host, status: res.status, code: body.error?.code }).toEqual({
        host,
        status: 400,
        code: -32000,
      });
      expect(body.error.message).toMatch(/^Bad Request: malformed Host header/);
    }
    // Well-formed local hosts, with or without a port, still pass.
    for (const host of ['localhost', 'LOCALHOST:8080', '127.0.0.1:3000', '[::1]:3000']) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, host },
        body: initializeBody(),
      });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
      await res.text();
    }
  });

  it('the request target is routed as URL parsing reads it: query ignored, dot segments resolved, escapes and look-alikes 404', async () => {
    served = await serveHttp(httpFixture(), { port: 0 });
    const body = initializeBody();
    const status = async (target: string) => {
      const reply = await rawExchange(
        served!.port,
        `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return Number(reply.slice(9, 12));
    };
    const served200 = ['/mcp', '/mcp?probe=1', '/a/../mcp', '/./mcp', '/x/%2E%2E/mcp'];
    const notFound = ['/mcp/', '/%6Dcp', '//mcp', '/MCP', '/mcp2'];
    for (const target of [...served200, ...notFound]) {
      expect({ target, status: await status(target) }).toEqual({
        target,
        status: served200.includes(target) ? 200 : 404,
      });
    }
  });

  it('a duplicate `Host` header is refused 400, even when the first one is local', async () => {
    served = await serveHttp(httpFixture(), { port: 0 });
    const body = initializeBody();
    const request = (hosts: string[]) =>
      `POST /mcp HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    for (const hosts of [
      ['localhost', 'evil.example'],
      ['localhost', 'localhost'],
    ]) {
      const reply = await rawExchange(served.port, request(hosts));
      expect({ hosts, status: reply.slice(0, 12) }).toEqual({ hosts, status: 'HTTP/1.1 400' });
      expect(reply).toContain('more than one Host header was sent; send exactly one');
    }
    const single = await rawExchange(served.port, request([`localhost:${served.port}`]));
    expect(single.slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('a cancelled legacy POST leaves the official client (@modelcontextprotocol/client 2.x) working, with no transport error', async () => {
    served = await serveHttp(httpFixture(), { port: 0 });
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    const errors: unknown[] = [];
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    await client.connect(transport);
    transport.onerror = (error) => errors.push(error);
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'wait', arguments: { key: 'official-cancel' } },
      { signal: controller.signal },
    );
    await until(() => gates.has('official-cancel'), 'the call to start');
    controller.abort('user');
    await expect(call).rejects.toThrow();
    await until(() => aborted.has('official-cancel'), 'the server to abort the call');
    const after = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect((after.content as { text: string }[])[0].text).toBe('still here');
    await client.close();
    expect(errors).toEqual([]);
  });
});
