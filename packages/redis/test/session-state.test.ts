import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Context, createServer, Tool } from '@mcp-fw/core';
import type { McpHttpHandler } from '@mcp-fw/core/http';
import { REDIS_SERVER } from './support/processes.ts';
import { twoInstancesOnRedis } from './support/two-instances.ts';

// ctx.state in the shared store: what one instance wrote, another reads (issue 29, FastMCP's
// set_state/get_state), within the bounds, against a real redis-server.
class Visits {
  @Tool({
    description: 'Counts visits and remembers the last page',
    input: z.object({ page: z.string() }),
  })
  async visit({ page }: { page: string }, ctx: Context) {
    const seen = ((await ctx.state.get<{ count: number; last?: string }>('visits')) ?? {
      count: 0,
    }) as { count: number; last?: string };
    await ctx.state.set('visits', { count: seen.count + 1, last: page });
    return `${seen.count + 1} visits, before: ${seen.last ?? 'none'}`;
  }

  @Tool({ description: 'Stores a key', input: z.object({ key: z.string(), size: z.number() }) })
  async put({ key, size }: { key: string; size: number }, ctx: Context) {
    await ctx.state.set(key, 'x'.repeat(size));
    return 'stored';
  }

  @Tool({ description: 'Forgets a key', input: z.object({ key: z.string() }) })
  async forget({ key }: { key: string }, ctx: Context) {
    return String(await ctx.state.delete(key));
  }
}

const textOf = (result: { content: { text?: string }[]; isError?: boolean }) =>
  result.content.map((c) => c.text).join('');

function call(mcp: McpHttpHandler, name: string, args: object, who: string) {
  return mcp
    .fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
          authorization: `Bearer ${who}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: args,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
    )
    .then(
      async (res) =>
        (
          JSON.parse(await res.text()) as {
            result: { content: { text?: string }[]; isError?: boolean };
          }
        ).result,
    );
}

describe.skipIf(REDIS_SERVER === undefined)('ctx.state in a shared Redis store', () => {
  const cluster = twoInstancesOnRedis(() =>
    createServer({
      name: 'visits',
      version: '1.0.0',
      providers: [Visits],
      limits: { sessionState: { maxKeys: 3, maxBytes: 1_000 } },
    }),
  );

  it('what one instance set, another reads, per caller; deletes and bounds hold across instances', async () => {
    const [one, two] = cluster.instances;
    expect(textOf(await call(one, 'visit', { page: 'home' }, 'ada'))).toBe(
      '1 visits, before: none',
    );
    expect(textOf(await call(two, 'visit', { page: 'cart' }, 'ada'))).toBe(
      '2 visits, before: home',
    );
    expect(textOf(await call(two, 'visit', { page: 'home' }, 'bob'))).toBe(
      '1 visits, before: none',
    );
    // Kept in Redis under the caller, expiring when idle (1 hour by default).
    expect(Number(cluster.redis.cli('PTTL', 'mcp:state:{id:ada}'))).toBeGreaterThan(3_500_000);

    expect(textOf(await call(one, 'put', { key: 'a', size: 10 }, 'ada'))).toBe('stored');
    expect(textOf(await call(two, 'put', { key: 'b', size: 10 }, 'ada'))).toBe('stored');
    const keys = await call(one, 'put', { key: 'c', size: 10 }, 'ada');
    expect(keys.isError).toBe(true);
    expect(textOf(keys)).toContain('limits.sessionState.maxKeys (3)');
    expect(textOf(await call(two, 'forget', { key: 'b' }, 'ada'))).toBe('true');
    expect(textOf(await call(one, 'forget', { key: 'b' }, 'ada'))).toBe('false');
    const bytes = await call(two, 'put', { key: 'c', size: 2_000 }, 'ada');
    expect(bytes.isError).toBe(true);
    expect(textOf(bytes)).toContain('limits.sessionState.maxBytes (1000 bytes');
    // The refused write changed nothing; the byte count follows replacements and deletes.
    expect(textOf(await call(one, 'put', { key: 'c', size: 900 }, 'ada'))).toBe('stored');
    expect(textOf(await call(one, 'forget', { key: 'c' }, 'ada'))).toBe('true');
    expect(textOf(await call(two, 'put', { key: 'a', size: 950 }, 'ada'))).toBe('stored');
    expect(textOf(await call(one, 'visit', { page: 'end' }, 'ada'))).toBe('3 visits, before: cart');
  });

  it('the store keeps the bounds itself: its byte count matches its contents, and clear drops both', async () => {
    const states = cluster.stores[0].sessionState!;
    const bounds = { maxKeys: 10, maxBytes: 100, idleTimeoutMs: 60_000 };
    expect(await states.set('s', 'é', '"ü"', bounds)).toBeUndefined();
    // UTF-8 bytes: 'é' is 2, '"ü"' is 4.
    expect(cluster.redis.cli('GET', 'mcp:state-bytes:{s}')).toBe('6');
    expect(await states.get('s', 'é', bounds)).toBe('"ü"');
    expect(await states.set('s', 'k', 'x'.repeat(95), bounds)).toBe('maxBytes');
    await states.clear('s');
    expect(cluster.redis.cli('EXISTS', 'mcp:state:{s}', 'mcp:state-bytes:{s}')).toBe('0');
    expect(await states.get('s', 'é', bounds)).toBeUndefined();
  });
});
