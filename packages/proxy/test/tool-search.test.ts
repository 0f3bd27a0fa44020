import { connect } from '@mcp-fw/client';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it } from 'vitest';
import { quiet, upstreamServer, type Seen } from './support/upstream.ts';

// server.searchTools on a proxy: the upstream's tools are members like any other, so search
// indexes them and call_tool forwards to the upstream server.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.each(['2025-06-18', '2026-07-28'])('tool search over a proxied %s server', (upstream) => {
  it('search_tools finds proxied tools and call_tool reaches the upstream', async () => {
    const seen: Seen = { aborted: [], calls: 0 };
    const proxy = await createProxy(upstreamServer(seen), {
      connect: { protocolVersion: upstream },
      server: { logger: quiet },
      onWarning: () => {},
    });
    closers.push(() => proxy.close());
    proxy.searchTools({ alwaysVisible: ['greet'] });
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual([
      'call_tool',
      'greet',
      'search_tools',
    ]);
    const found = await client.callTool('search_tools', { query: 'add two numbers' });
    const tools = (found.structuredContent as { tools: { name: string; inputSchema: unknown }[] })
      .tools;
    expect(tools[0]).toMatchObject({
      name: 'add',
      inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } } },
    });
    const sum = await client.callTool('call_tool', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(seen.calls).toBe(1);
    const bad = await client.callTool('call_tool', { name: 'add', arguments: { a: 'two' } });
    expect(bad.isError).toBe(true);
    expect(seen.calls).toBe(1);
  });
});
