import { afterEach, describe, expect, it } from 'vitest';
import { httpFixture } from './support/http-fixture.ts';
import { initializeBody, JSON_AND_SSE, SURFACES, type Surface } from './support/http-surfaces.ts';

let surface: Surface | undefined;
afterEach(async () => {
  await surface?.close();
  surface = undefined;
});

async function initialize(s: Surface, version = '2025-11-25'): Promise<string> {
  const res = await s.send({
    method: 'POST',
    path: '/mcp',
    headers: JSON_AND_SSE,
    body: initializeBody(version),
  });
  expect(res.status).toBe(200);
  const id = res.header('mcp-session-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(await res.text()).result.protocolVersion).toBe(version);
  return id!;
}

function call(
  s: Surface,
  session: string | undefined,
  body: unknown,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...JSON_AND_SSE, ...extra };
  if (session) headers['mcp-session-id'] = session;
  return s.send({ method: 'POST', path: '/mcp', headers, body: JSON.stringify(body) });
}

describe.each(SURFACES)('Streamable HTTP sessions (%s)', (_name, make) => {
  it('mints a session at initialize; 400 without one, 404 for an unknown one', async () => {
    surface = await make(httpFixture());
    const session = await initialize(surface);
    const ping = await call(surface, session, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(ping.status).toBe(200);
    expect(ping.header('content-type')).toBe('application/json');
    expect(JSON.parse(await ping.text())).toEqual({ jsonrpc: '2.0', id: 2, result: {} });

    const missing = await call(surface, undefined, { jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(missing.status).toBe(400);
    expect(JSON.parse(await missing.text()).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('Mcp-Session-Id'),
    });

    const unknown = await call(surface, '00000000-0000-0000-0000-000000000000', {
      jsonrpc: '2.0',
      id: 4,
      method: 'ping',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(await unknown.text()).error.code).toBe(-32001);
  });

  it('answers 202 to notifications and 404 after DELETE', async () => {
    surface = await make(httpFixture());
    const session = await initialize(surface);
    const note = await call(surface, session, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    const del = await surface.send({
      method: 'DELETE',
      path: '/mcp',
      headers: { 'mcp-session-id': session },
    });
    expect(del.status).toBe(200);
    expect((await call(surface, session, { jsonrpc: '2.0', id: 5, method: 'ping' })).status).toBe(
      404,
    );
    expect(surface.sessionCount()).toBe(0);
  });

  it('expires idle sessions (404 afterwards) and frees them', async () => {
    surface = await make(httpFixture(), { idleTimeoutMs: 60_000 });
    const session = await initialize(surface);
    expect(surface.sweep(Date.now() + 1_000)).toBe(0);
    expect(surface.sweep(Date.now() + 61_000)).toBe(1);
    await new Promise((r) => setTimeout(r, 10));
    expect(surface.sessionCount()).toBe(0);
    expect((await call(surface, session, { jsonrpc: '2.0', id: 6, method: 'ping' })).status).toBe(
      404,
    );
  });

  it('checks MCP-Protocol-Version against the supported revisions, not the negotiated one', async () => {
    surface = await make(httpFixture());
    const session = await initialize(surface);
    const older = await call(
      surface,
      session,
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { 'mcp-protocol-version': '2025-03-26' },
    );
    expect(older.status).toBe(200);
    const bogus = await call(
      surface,
      session,
      { jsonrpc: '2.0', id: 8, method: 'ping' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    expect(bogus.status).toBe(400);
    expect(JSON.parse(await bogus.text()).error.message).toContain('1999-01-01');
  });

  // Issue #15: a full store closes its least recently used idle session rather than refusing
  // everyone until the idle sweep (this test used to expect 976 × 503 here).
  it('holds the session cap under 1,000 initialize attempts by evicting idle sessions; a session in use keeps working', async () => {
    surface = await make(httpFixture(), { maxSessions: 25 });
    const first = await initialize(surface);
    const stream = await surface.send({
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream', 'mcp-session-id': first },
    });
    expect(stream.status).toBe(200);
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          call(surface!, undefined, JSON.parse(initializeBody('2025-11-25', {}, batch * 100 + i))),
        ),
      );
      for (const r of results) {
        statuses.push(r.status);
        await r.text();
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    expect(surface.sessionCount()).toBe(25);
    const still = await call(surface, first, { jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(still.status).toBe(200);
    stream.abort();
  });
});
