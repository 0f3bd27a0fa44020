import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { createHttpHandler } from '@mcp-fw/core/http';
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
