import { afterEach, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from '@mcp-fw/core/node';
import { app, seen } from './support/shop.ts';

// The official clients call run_script over real HTTP on loopback: SDK 1.x in a 2025-11-25
// session, client 2.x in the stateless 2026-07-28 era.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Peer {
  listTools(): Promise<{ tools: { name: string; description?: string }[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  version(): string | undefined;
}

async function v1(url: string): Promise<Peer> {
  const client = new ClientV1({ name: 'codemode-v1', version: '1.0.0' });
  const transport = new HttpV1(new URL(url));
  await client.connect(transport);
  closers.push(() => client.close());
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    version: () => transport.protocolVersion,
  };
}

async function v2(url: string): Promise<Peer> {
  const client = new ClientV2(
    { name: 'codemode-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' as const } },
  );
  await client.connect(new HttpV2(new URL(url)));
  closers.push(() => client.close());
  return {
    listTools: () => client.listTools() as Promise<{ tools: { name: string }[] }>,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    version: () => client.getNegotiatedProtocolVersion(),
  };
}

const KINDS = [
  ['@modelcontextprotocol/sdk 1.x', '2025-11-25', v1],
  ['@modelcontextprotocol/client 2.x', '2026-07-28', v2],
] as const;

describe.each(KINDS)('%s (%s) in code mode over HTTP', (_kind, era, connect) => {
  it('the official client runs a three-call script in one tool call, and a refused script is an isError result', async () => {
    const handle = await serveHttp(app({ timeoutMs: 2000 }), { port: 0 });
    closers.push(() => handle.close());
    const peer = await connect(handle.url);
    expect(peer.version()).toBe(era);
    const { tools } = await peer.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['run_script', 'whoami']);
    seen.length = 0;
    const result = await peer.callTool('run_script', {
      code: `const c = await tools.find_customer({ email: 'ada@example.com' });
             const { orders } = await tools.list_orders({ customer_id: c.id });
             return await tools.refund({ order_id: orders[1].id, reason: 'late' });`,
    });
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toBe('refunded o2');
    expect(result.structuredContent).toEqual({ result: 'refunded o2', logs: [], calls: 3 });
    expect(seen).toEqual(['find ada@example.com', 'orders c1', 'refund o2']);
    const looping = await peer.callTool('run_script', { code: 'while (true) {}' });
    expect(looping.isError).toBe(true);
    expect(looping.content[0].text).toMatch(/ran over the 2000 ms limit/);
  });
});
