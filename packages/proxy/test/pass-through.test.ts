import { connect, type McpClient } from '@mcp-fw/client';
import { createProxy, type ProxyServer } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quiet, upstreamServer, type Seen } from './support/upstream.ts';

// The fast path (src/pass-through.ts): a legacy caller's call of an untransformed member, on an
// upstream connection that speaks the caller's revision, is passed on as it came, skipping the
// proxy's server pass. What the full path guarantees must still hold on it; what it cannot
// honour (transforms, middleware, 2026-07-28 callers) must take the full path.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function textOf(result: { content: readonly { text?: string }[] }): string {
  return result.content.map((c) => c.text).join('');
}

async function proxied(
  seen?: Seen,
  options: Parameters<typeof createProxy>[1] = {},
): Promise<ProxyServer> {
  const proxy = await createProxy(upstreamServer(seen), {
    ...options,
    server: { logger: quiet, ...options.server },
  });
  closers.push(() => proxy.close());
  return proxy;
}

async function caller(
  proxy: ProxyServer,
  options: Parameters<typeof connect>[1] = {},
): Promise<McpClient> {
  const client = await connect(proxy, { protocolVersion: '2025-11-25', ...options });
  closers.push(() => client.close());
  // A caller's first call opens its upstream session (the full path); the next ones may pass.
  await client.callTool('capabilities', {});
  return client;
}

describe('pass-through', () => {
  it('pass-through keeps per-caller isolation (two callers, interleaved ids)', async () => {
    const proxy = await proxied();
    const a = await caller(proxy, {
      handlers: { elicitation: () => ({ action: 'decline' }) },
    });
    const b = await caller(proxy);
    const before = proxy.passedThrough;
    // Both clients number their requests alike: the same ids arrive interleaved from two callers.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).callTool('capabilities', {})),
    );
    expect(answers.map(textOf)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'elicitation' : '')),
    );
    // Each caller's upstream session keeps its own state.
    const counts: string[] = [];
    for (const client of [a, a, b, a, b]) counts.push(textOf(await client.callTool('count', {})));
    expect(counts).toEqual(['1', '2', '1', '3', '2']);
    expect(proxy.passedThrough - before).toBe(25);
    expect(proxy.health()[0].sessions).toBe(2);
  });

  it('resources/read and prompts/get pass through as tools/call does; templates take the full path', async () => {
    const proxy = await proxied();
    const client = await caller(proxy);
    const before = proxy.passedThrough;
    const read = await client.readResource('memo://today');
    expect(read.contents[0]).toMatchObject({ uri: 'memo://today', text: 'Nothing planned.' });
    const prompt = await client.getPrompt('explain', { language: 'rust' });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: 'Explain this rust' });
    expect(proxy.passedThrough - before).toBe(2);
    const note = await client.readResource('memo://notes/monday');
    expect(note.contents[0]).toMatchObject({ text: 'Note of monday' });
    expect(proxy.passedThrough - before).toBe(2);
  });

  it("the upstream's questions and log messages reach the caller that passed the call on", async () => {
    const proxy = await proxied();
    const heard: string[] = [];
    const client = await caller(proxy, {
      logLevel: 'info',
      onLog: (m) => heard.push(`log ${String(m.data)}`),
      handlers: {
        elicitation: (r) => {
          heard.push(`asked ${r.message}`);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    const before = proxy.passedThrough;
    expect(textOf(await client.callTool('greet', {}))).toBe('Hello Ada');
    expect(textOf(await client.callTool('chatty', { n: 2 }))).toBe('logged');
    expect(proxy.passedThrough - before).toBe(2);
    await vi.waitFor(() => expect(heard).toHaveLength(3));
    expect(heard).toEqual(['asked Your name?', 'log message 0', 'log message 1']);
  });

  it('cancellation by a downstream cancels upstream', async () => {
    const seen: Seen = { aborted: [], calls: 0 };
    const proxy = await proxied(seen);
    const client = await caller(proxy);
    const before = proxy.passedThrough;
    const controller = new AbortController();
    const call = client.callTool(
      'slow',
      { ms: 10_000 },
      { signal: controller.signal, onProgress: () => controller.abort(new Error('user left')) },
    );
    await expect(call).rejects.toThrow('user left');
    expect(proxy.passedThrough - before).toBe(1);
    await vi.waitFor(() => expect(seen.aborted).toHaveLength(1));
    expect(seen.aborted[0]).toMatch(/user left/);
  });

  it('a passed-through call without progress is cancelled upstream when its caller cancels', async () => {
    const seen: Seen = { aborted: [], calls: 0 };
    const proxy = await proxied(seen);
    const client = await caller(proxy);
    const before = proxy.passedThrough;
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 10_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 100);
    await expect(call).rejects.toThrow('user left');
    expect(proxy.passedThrough - before).toBe(1);
    await vi.waitFor(() => expect(seen.aborted).toHaveLength(1));
    expect(seen.aborted[0]).toMatch(/user left/);
  });

  it("the proxy's timeoutMs fails a passed-through slow call naming the upstream, and the upstream hears the cancel", async () => {
    const seen: Seen = { aborted: [], calls: 0 };
    const proxy = await proxied(seen, { timeoutMs: 300 });
    const client = await caller(proxy);
    const before = proxy.passedThrough;
    const result = await client.callTool('slow', { ms: 10_000 });
    expect(proxy.passedThrough - before).toBe(1);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /Upstream "upstream" did not answer tools\/call "slow" within 300 ms \(the proxy's timeoutMs for it\)/,
    );
    await vi.waitFor(() => expect(seen.aborted).toHaveLength(1));
    expect(seen.aborted[0]).toMatch(/within 300 ms/);
  });

  it("passed-through calls arm no timer per call for the proxy's timeoutMs", async () => {
    // A timeoutMs no other timer uses: each setTimeout of that length is the proxy's.
    const proxy = await proxied(undefined, { timeoutMs: 12_345 });
    const client = await caller(proxy);
    const before = proxy.passedThrough;
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await Promise.all(Array.from({ length: 20 }, () => client.callTool('count', {})));
      const armed = timers.mock.calls.filter(([, ms]) => ms === 12_345).length;
      expect(proxy.passedThrough - before).toBe(20);
      // One timer for the upstream's calls (deadlines.ts), not one per call.
      expect(armed).toBeLessThanOrEqual(1);
    } finally {
      timers.mockRestore();
    }
  });

  it('progress reaches the right caller', async () => {
    const proxy = await proxied();
    const a = await caller(proxy);
    const b = await caller(proxy);
    const before = proxy.passedThrough;
    const heard = { a: [] as string[], b: [] as string[] };
    const results = await Promise.all(
      (['a', 'b'] as const).map((who) =>
        (who === 'a' ? a : b).callTool(
          'slow',
          { ms: 50 },
          { onProgress: (p) => heard[who].push(`${who} ${p.progress}/${p.total} ${p.message}`) },
        ),
      ),
    );
    expect(results.map(textOf)).toEqual(['finished', 'finished']);
    expect(proxy.passedThrough - before).toBe(2);
    await vi.waitFor(() => expect(heard.b).toHaveLength(2));
    expect(heard).toEqual({
      a: ['a 1/2 started', 'a 2/2 done'],
      b: ['b 1/2 started', 'b 2/2 done'],
    });
  });

  it('an upstream answering garbage gives an error naming the upstream', async () => {
    const upstream = upstreamServer();
    upstream.use({ callTool: async () => ({ content: 'not a list' }) as never });
    const proxy = await createProxy(upstream, { server: { logger: quiet } });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const expected =
      'Upstream "upstream" answered tools/call "count" with an invalid result ("content" is not an array); the proxy did not pass it on';
    const first = await client.callTool('count', {});
    const before = proxy.passedThrough;
    const passed = await client.callTool('count', {});
    expect(proxy.passedThrough - before).toBe(1);
    for (const result of [first, passed]) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(expected);
    }
  });

  it('a transformed tool still takes the full path', async () => {
    const proxy = await createProxy(
      { mcpServers: { desk: upstreamServer() } },
      {
        server: { logger: quiet },
        upstreams: {
          desk: {
            tools: {
              count: { name: 'tally' },
              // Without the hidden value the upstream refuses the call: passed on as it came, it fails.
              slow: { args: { ms: { hide: true, value: 1 } } },
            },
          },
        },
      },
    );
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    await client.callTool('desk_capabilities', {});
    const before = proxy.passedThrough;
    expect(textOf(await client.callTool('desk_tally', {}))).toBe('1');
    expect(textOf(await client.callTool('desk_tally', {}))).toBe('2');
    const slow = await client.callTool('desk_slow', {});
    expect(slow.isError).toBeFalsy();
    expect(textOf(slow)).toBe('finished');
    expect(proxy.passedThrough).toBe(before);
    // An untouched tool of the same upstream still passes, under the upstream's own name.
    expect(textOf(await client.callTool('desk_capabilities', {}))).toBe('');
    expect(proxy.passedThrough).toBe(before + 1);
  });

  it('middleware on the proxy still runs (or disables the fast path)', async () => {
    const added: string[] = [];
    const viaUse = await proxied();
    viaUse.use({
      callTool: (ctx, next) => {
        added.push(String(ctx.member?.name));
        return next();
      },
    });
    const configured: string[] = [];
    const viaOptions = await proxied(undefined, {
      server: {
        middleware: [
          {
            callTool: (ctx, next) => {
              configured.push(String(ctx.member?.name));
              return next();
            },
          },
        ],
      },
    });
    for (const [proxy, heard] of [
      [viaUse, added],
      [viaOptions, configured],
    ] as const) {
      const client = await caller(proxy);
      await client.callTool('count', {});
      await client.callTool('count', {});
      expect(heard).toEqual(['capabilities', 'count', 'count']);
      expect(proxy.passedThrough).toBe(0);
    }
  });

  it('a 2026-07-28 caller takes the full path (the proxy bridges what each era needs)', async () => {
    const proxy = await proxied();
    const client = await caller(proxy, { protocolVersion: '2026-07-28' });
    expect(textOf(await client.callTool('count', {}))).toMatch(/^\d+$/);
    expect(proxy.passedThrough).toBe(0);
  });

  it("a legacy caller of another revision than its upstream session takes the full path (nothing of the upstream's revision reaches it)", async () => {
    // The proxy's upstream sessions are pinned to 2025-11-25; this caller speaks 2025-06-18.
    const proxy = await proxied(undefined, { connect: { protocolVersion: '2025-11-25' } });
    const client = await caller(proxy, { protocolVersion: '2025-06-18' });
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(textOf(await client.callTool('count', {}))).toMatch(/^\d+$/);
    expect(proxy.passedThrough).toBe(0);
    // The same caller at the upstream session's revision is passed through.
    const same = await caller(proxy, { protocolVersion: '2025-11-25' });
    await same.callTool('count', {});
    expect(proxy.passedThrough).toBe(1);
  });
});
