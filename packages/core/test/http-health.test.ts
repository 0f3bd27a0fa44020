import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '@mcp-fw/core/http';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { httpFixture } from './support/http-fixture.ts';

// Issue #21: a health endpoint a load balancer can probe, over real HTTP.

let handles: HttpServerHandle[] = [];
afterEach(async () => {
  for (const h of handles) await h.close();
  handles = [];
});

async function serve(health: Parameters<typeof serveHttp>[1] extends infer O ? O : never) {
  const handle = await serveHttp(httpFixture(), { port: 0, ...health });
  handles.push(handle);
  return handle;
}

/** A raw HTTP request with the Host a load balancer would send (its own view of the address). */
function probe(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? '10.1.2.3:8080' },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            headers: res.headers as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('health endpoint (serveHttp)', () => {
  it('answers 200 on the readiness path, before the Host check that guards /mcp', async () => {
    const http = await serve({ health: '/healthz' });
    const ok = await probe(http.port, '/healthz');
    expect(ok).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(ok.headers['cache-control']).toBe('no-store');
    expect((await probe(http.port, '/healthz', { method: 'HEAD' })).status).toBe(200);
    // The same foreign Host on the MCP endpoint is refused (DNS-rebinding protection stays).
    expect((await probe(http.port, '/mcp')).status).toBe(403);
    const post = await probe(http.port, '/healthz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('is off unless asked for', async () => {
    const http = await serve({});
    expect((await probe(http.port, '/healthz', { host: '127.0.0.1' })).status).toBe(404);
  });

  it('reports not ready (503) when the check fails or throws; liveness stays 200', async () => {
    let state: 'up' | 'down' | 'broken' = 'up';
    const http = await serve({
      health: {
        path: '/readyz',
        livePath: '/livez',
        check: async () => {
          if (state === 'broken') throw new Error('db gone');
          return state === 'up';
        },
      },
    });
    expect((await probe(http.port, '/readyz')).status).toBe(200);
    state = 'down';
    expect(await probe(http.port, '/readyz')).toMatchObject({
      status: 503,
      body: '{"status":"unavailable"}',
    });
    state = 'broken';
    expect((await probe(http.port, '/readyz')).status).toBe(503);
    expect(await probe(http.port, '/livez')).toMatchObject({
      status: 200,
      body: '{"status":"ok"}',
    });
  });

  it('refuses a path that is not one, at startup', async () => {
    await expect(serveHttp(httpFixture(), { port: 0, health: 'healthz' })).rejects.toThrow(
      /health.path must be a path starting with "\/"/,
    );
  });
});

describe('health endpoint (createHttpHandler)', () => {
  it('turns not ready once the handler is closing', async () => {
    const mcp = createHttpHandler(httpFixture(), { health: '/healthz' });
    const ask = () => mcp.fetch(new Request('http://10.0.0.7/healthz'));
    expect((await ask()).status).toBe(200);
    const closed = mcp.close();
    const res = await ask();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable' });
    await closed;
  });
});
