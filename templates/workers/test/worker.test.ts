import { connectTestClient } from '@mcp-fw/core/testing';
import { expect, it } from 'vitest';
import worker, { McpSessions } from '../src/worker.js';
import { createTemperatureServer } from '../src/temperatures.js';

it('converts temperatures', async () => {
  const client = await connectTestClient(createTemperatureServer());
  try {
    expect(await client.callTool('to_fahrenheit', { celsius: 100 })).toEqual({
      content: [{ type: 'text', text: '100 °C is 212 °F' }],
    });
  } finally {
    await client.close();
  }
});

// The Worker's own fetch handler, on Node. Durable Objects are Cloudflare's, so here a Map of
// McpSessions instances stands in for the MCP_SESSIONS namespace (`wrangler dev` runs the real
// thing).
function sessionsNamespace() {
  const objects = new Map<string, InstanceType<typeof McpSessions>>();
  let next = 0;
  const env: Record<string, unknown> = {};
  const namespace = {
    newUniqueId() {
      const id = (++next).toString(16).padStart(64, '0');
      return { toString: () => id };
    },
    idFromString(id: string) {
      if (!/^[0-9a-f]{64}$/.test(id)) throw new TypeError('not an id of this namespace');
      return { toString: () => id };
    },
    // The object a name maps to (the Worker sends its tasks to one named object).
    idFromName(name: string) {
      const id = Buffer.from(name).toString('hex').padStart(64, '0').slice(-64);
      return { toString: () => id };
    },
    get(id: { toString(): string }) {
      const key = id.toString();
      if (!objects.has(key)) objects.set(key, new McpSessions({ id }, env));
      return objects.get(key)!;
    },
  };
  env.MCP_SESSIONS = namespace;
  return { env, objects };
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': String(JSON.stringify(body).length),
      ...headers,
    },
    body: JSON.stringify(body),
  });

it('serves a 2026-07-28 call in the Worker and a 2025 session in its Durable Object', async () => {
  const { env, objects } = sessionsNamespace();
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'to_fahrenheit', arguments: { celsius: 0 }, _meta: meta },
  };
  const modern = await worker.fetch(
    post(call, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'to_fahrenheit',
    }),
    env,
  );
  expect(((await modern.json()) as any).result.content).toEqual([
    { type: 'text', text: '0 °C is 32 °F' },
  ]);
  expect(objects.size).toBe(0);

  const init = await worker.fetch(
    post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'test', version: '1.0.0' },
      },
    }),
    env,
  );
  const session = init.headers.get('mcp-session-id')!;
  expect(session.split('.')[0]).toBe([...objects.keys()][0]);
  await init.text();
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await worker.fetch(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers), env);
  const legacy = await worker.fetch(
    post(
      { ...call, id: 2, params: { name: 'to_fahrenheit', arguments: { celsius: 37 } } },
      headers,
    ),
    env,
  );
  const text = await legacy.text();
  expect(text).toContain('37 °C is 99 °F');
  expect(objects.size).toBe(1);
});
