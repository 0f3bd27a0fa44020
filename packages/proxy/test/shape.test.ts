import { connect } from '@mcp-fw/client';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it } from 'vitest';
import { quiet, upstreamServer } from './support/upstream.ts';

// An upstream's `tools`, `include` and `exclude` (in an mcpServers entry or its upstream
// options) are applied with core's server.transform / server.filter.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('transforms of proxied tools', () => {
  it('an mcpServers entry renames a tool, hides an argument and filters, as its clients see', async () => {
    const proxy = await createProxy(
      { mcpServers: { desk: upstreamServer() } },
      {
        server: { logger: quiet },
        upstreams: {
          desk: {
            tools: { add: { name: 'plus', args: { b: { hide: true, value: 10 } } } },
            include: ['add', 'count', 'explain'],
            exclude: ['count'],
          },
        },
      },
    );
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['desk_plus']);
    expect(Object.keys(tools[0].inputSchema.properties ?? {})).toEqual(['a']);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['desk_explain']);
    const result = await client.callTool('desk_plus', { a: 5 });
    expect(result.structuredContent).toEqual({ sum: 15 });
  });

  it('tools, include and exclude given at the top level shape a single upstream', async () => {
    const proxy = await createProxy(upstreamServer(), {
      server: { logger: quiet },
      tools: { add: { name: 'plus', args: { b: { hide: true, value: 10 } } } },
      include: ['add', 'count', 'explain'],
      exclude: ['count'],
    });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['plus']);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['explain']);
    expect((await client.callTool('plus', { a: 5 })).structuredContent).toEqual({ sum: 15 });
  });

  it('a transform of a tool the upstream does not have fails at start naming the upstream and the tool', async () => {
    await expect(
      createProxy(
        { mcpServers: { desk: upstreamServer() } },
        {
          server: { logger: quiet },
          upstreams: { desk: { tools: { read_text_file: { name: 'read' } } } },
        },
      ),
    ).rejects.toThrow(
      /upstream "desk", tool "read_text_file": .*no tool of that name.*tools: .*desk_add/,
    );
  });

  it('a malformed tools entry fails before connecting, naming the upstream, the tool and the fix', async () => {
    await expect(
      createProxy(
        { mcpServers: { desk: upstreamServer() } },
        {
          server: { logger: quiet },
          upstreams: { desk: { tools: { add: { args: { b: { hidden: true } } } } } as never },
        },
      ),
    ).rejects.toThrow(
      /upstream "desk": the tool "add", argument "b" has an unknown key "hidden"\. Fix: /,
    );
  });
});
