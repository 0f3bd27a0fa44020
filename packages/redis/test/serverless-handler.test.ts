// serverlessHandler in process: what it refuses, and with the fix named (serverless.test.ts runs
// it on cold instances with Redis, in a CI step of its own).
import { createServer, Tool } from '@mcp-fw/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverlessHandler } from '../src/index.ts';

class Echo {
  @Tool({ description: 'Echoes its text', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }
}

const server = () => createServer({ name: 'serverless', version: '1.0.0', providers: [Echo] });
const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const saved = process.env.REDIS_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.REDIS_URL;
  else process.env.REDIS_URL = saved;
});

describe('serverlessHandler', () => {
  it('without REDIS_URL or the redis option it fails at creation, naming REDIS_URL and redis: false', () => {
    delete process.env.REDIS_URL;
    expect(() => serverlessHandler(server)).toThrow(/REDIS_URL is unset.*\{ redis: false \}/);
  });

  it('with redis: false it serves 2026-07-28 calls and refuses a legacy initialize with 400 -32600 naming REDIS_URL', async () => {
    const handler = serverlessHandler(server, { redis: false });
    const call = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'cold' }, _meta: MODERN },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      ),
    );
    expect(call.status).toBe(200);
    expect(((await call.json()) as any).result.content).toEqual([{ type: 'text', text: 'cold' }]);

    const init = await handler.fetch(
      post({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'test', version: '1.0.0' },
        },
      }),
    );
    expect(init.status).toBe(400);
    const body = (await init.json()) as any;
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(/2026-07-28 revision only.*Fix: .*REDIS_URL/);
  });

  it('a Redis it cannot reach answers 503 with Retry-After naming REDIS_URL', async () => {
    const handler = serverlessHandler(server, {
      redis: { url: 'redis://127.0.0.1:1', startupTimeoutMs: 300 },
    });
    const response = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(((await response.json()) as any).error.message).toMatch(/Fix: check that REDIS_URL/);
  });
});
