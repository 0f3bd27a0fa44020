import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { expect, it, vi } from 'vitest';
import { createHttpHandler, type McpHttpHandler } from '@mcp-fw/core/http';
import { toNodeListener } from '@mcp-fw/core/node';
import { httpFixture } from './support/http-fixture.ts';
import { initializeBody, JSON_AND_SSE } from './support/http-surfaces.ts';

it('mounts in Hono with one line and serves a whole session there', async () => {
  const mcp = createHttpHandler(httpFixture());
  const app = new Hono();
  app.all('/mcp', (c) => mcp.fetch(c.req.raw));
  const init = await app.request('http://localhost/mcp', {
    method: 'POST',
    headers: JSON_AND_SSE,
    body: initializeBody(),
  });
  expect(init.status).toBe(200);
  const session = init.headers.get('mcp-session-id')!;
  const call = await app.request('http://localhost/mcp', {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'via hono' } },
    }),
  });
  expect(await call.json()).toEqual({
    jsonrpc: '2.0',
    id: 2,
    result: { content: [{ type: 'text', text: 'via hono' }] },
  });
  await mcp.close();
});

it('lets go of every session and connection once they close', async () => {
  const server = httpFixture();
  const mcp = createHttpHandler(server);
  const sessions: string[] = [];
  for (let i = 0; i < 200; i++) {
    const res = await mcp.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: JSON_AND_SSE,
        body: initializeBody(),
      }),
    );
    sessions.push(res.headers.get('mcp-session-id')!);
    await res.text();
  }
  expect(mcp.endpoint.sessionCount).toBe(200);
  expect(server.connectionCount).toBe(200);
  await Promise.all(
    sessions.map((id) =>
      mcp.fetch(
        new Request('http://localhost/mcp', {
          method: 'DELETE',
          headers: { 'mcp-session-id': id },
        }),
      ),
    ),
  );
  expect(mcp.endpoint.sessionCount).toBe(0);
  expect(server.connectionCount).toBe(0);
});

it('a handler that fails under toNodeListener is answered 500 and reported once on stderr', async () => {
  const failing = {
    endpoint: { handle: () => Promise.reject(new Error('handler exploded')) },
  } as unknown as McpHttpHandler;
  const lines: string[] = [];
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  const server = createServer(toNodeListener(failing));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: JSON_AND_SSE,
      body: initializeBody(),
    });
    expect(answer.status).toBe(500);
    await vi.waitFor(() => expect(lines.join('')).toContain('handler exploded'));
    const reports = lines.filter((line) => line.startsWith('[mcp-fw] HTTP handler failed: '));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('Error: handler exploded');
  } finally {
    write.mockRestore();
    await new Promise((resolve) => server.close(resolve));
  }
});
