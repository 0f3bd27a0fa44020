import { afterEach, describe, expect, it } from 'vitest';
import { httpFixture } from './support/http-fixture.ts';
import { initializeBody, JSON_AND_SSE, SURFACES, type Surface } from './support/http-surfaces.ts';

let surface: Surface | undefined;
afterEach(async () => {
  await surface?.close();
  surface = undefined;
});

const init = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  path: '/mcp',
  headers: { ...JSON_AND_SSE, ...headers },
  body: initializeBody(),
});

describe.each(SURFACES)('HTTP security defaults (%s)', (_name, make) => {
  it('refuses a foreign Origin and a foreign Host with 403, accepts localhost ones', async () => {
    surface = await make(httpFixture());
    const evil = await surface.send(init({ origin: 'http://evil.example' }));
    expect(evil.status).toBe(403);
    expect(JSON.parse(await evil.text())).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: Origin http://evil.example is not allowed' },
    });
    const rebound = await surface.send(init({ host: 'evil.example:80' }));
    expect(rebound.status).toBe(403);
    expect(await rebound.text()).toContain('Host');
    const local = await surface.send(init({ origin: 'http://localhost:5173' }));
    expect(local.status).toBe(200);
    await local.text();
  });

  it('allows configured origins and hosts', async () => {
    surface = await make(httpFixture(), {
      allowedOrigins: ['https://app.example'],
      allowedHosts: ['localhost', 'mcp.example'],
    });
    expect(
      (await surface.send(init({ origin: 'https://app.example', host: 'mcp.example' }))).status,
    ).toBe(200);
    expect((await surface.send(init({ origin: 'http://localhost' }))).status).toBe(403);
  });

  it('answers a 10 MiB body with 413, malformed JSON with 400/-32700, bad media types with 415/406', async () => {
    surface = await make(httpFixture());
    const huge = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: JSON_AND_SSE,
      body: `{"x":"${'a'.repeat(10 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
    const broken = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: JSON_AND_SSE,
      body: '{"jsonrpc":',
    });
    expect(broken.status).toBe(400);
    expect(JSON.parse(await broken.text()).error.code).toBe(-32700);
    const plain = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, 'content-type': 'text/plain' },
      body: initializeBody(),
    });
    expect(plain.status).toBe(415);
    const jsonOnly = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, accept: 'application/json' },
      body: initializeBody(),
    });
    expect(jsonOnly.status).toBe(406);
    expect((await surface.send({ method: 'PUT', path: '/mcp' })).status).toBe(405);
    expect((await surface.send({ method: 'GET', path: '/elsewhere' })).status).toBe(404);
  });

  it('lets the auth hook reject with 401 + WWW-Authenticate, or attach an identity handlers read', async () => {
    surface = await make(httpFixture(), {
      authenticate: (req) =>
        req.header('authorization') === 'Bearer good'
          ? { auth: { user: 'ada' } }
          : {
              reject: {
                wwwAuthenticate: 'Bearer realm="mcp", error="invalid_token"',
                message: 'Unauthorized: bad token',
              },
            },
    });
    const denied = await surface.send(init({ authorization: 'Bearer bad' }));
    expect(denied.status).toBe(401);
    expect(denied.header('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_token"');
    const ok = await surface.send(init({ authorization: 'Bearer good' }));
    const session = ok.header('mcp-session-id')!;
    await ok.text();
    const who = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, authorization: 'Bearer good', 'mcp-session-id': session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });
    expect(JSON.parse(await who.text()).result.content[0].text).toBe('{"user":"ada"}');
  });

  it('answers a request whose serving fails unexpectedly with 500 and a JSON-RPC error, then keeps serving', async () => {
    let calls = 0;
    surface = await make(httpFixture(), {
      authenticate: () => {
        if (++calls === 1) throw new Error('identity provider unreachable');
        return { auth: {} };
      },
    });
    const failed = await surface.send(init());
    expect(failed.status).toBe(500);
    expect(failed.header('content-type')).toBe('application/json');
    expect(JSON.parse(await failed.text())).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32603,
        message: 'Internal error: the server failed while handling this request',
      },
    });
    const next = await surface.send(init());
    expect(next.status).toBe(200);
    await next.text();
  });

  it('answers CORS preflights only for configured origins', async () => {
    surface = await make(httpFixture(), { cors: { origins: ['http://localhost:5173'] } });
    const preflight = await surface.send({
      method: 'OPTIONS',
      path: '/mcp',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.header('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.header('access-control-expose-headers')).toBe(
      'mcp-session-id, www-authenticate, retry-after',
    );
  });
});
