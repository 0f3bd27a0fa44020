import { connect, type InputHandlers } from '@mcp-fw/client';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quiet, upstreamServer, type Seen } from './support/upstream.ts';

// The proxy between clients and servers of either era, all in this process: what it mirrors,
// and every kind of request forwarded, in the bridging directions.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function through(upstreamRevision: string | undefined, downstreamRevision: string) {
  const seen: Seen = { aborted: [], calls: 0 };
  const proxy = await createProxy(upstreamServer(seen), {
    connect: upstreamRevision ? { protocolVersion: upstreamRevision } : {},
    server: { logger: quiet },
    onWarning: () => {},
  });
  closers.push(() => proxy.close());
  const asked: string[] = [];
  const client = await connect(proxy, {
    protocolVersion: downstreamRevision,
    handlers: {
      elicitation: (request, info) => {
        asked.push(`${info.era}: ${request.message}`);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
      roots: () => [{ uri: 'file:///work', name: 'work' }],
    },
  });
  closers.push(() => client.close());
  return { proxy, client, asked, seen };
}

describe.each([
  ['a 2026-07-28 client through the proxy to a 2025-06-18 server', '2025-06-18', '2026-07-28'],
  ['a 2024-11-05 client to a 2026-07-28 server', '2026-07-28', '2024-11-05'],
  ['a 2025-11-25 client to a 2025-11-25 server', '2025-11-25', '2025-11-25'],
])('%s', (_title, upstream, downstream) => {
  it('mirrors the tools, resources, templates and prompts', async () => {
    const { proxy, client } = await through(upstream, downstream);
    expect(proxy.health()[0]).toMatchObject({ state: 'up', protocolVersion: upstream });
    expect(client.protocolVersion).toBe(downstream);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['add', 'capabilities', 'chatty', 'count', 'greet', 'ponder', 'sign', 'slow'].sort(),
    );
    expect(tools.find((t) => t.name === 'add')?.inputSchema).toMatchObject({
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['memo://today']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'memo://notes/{day}',
    ]);
    expect((await client.listPrompts()).map((p) => [p.name, p.arguments])).toEqual([
      ['explain', [{ name: 'language', required: true }]],
    ]);
  });

  it('forwards calls, reads, prompts and completion', async () => {
    const { client } = await through(upstream, downstream);
    const sum = await client.callTool('add', { a: 2, b: 3 });
    // structuredContent exists from 2025-06-18 on; older clients read the JSON text.
    expect(JSON.parse(sum.content[0].text as string)).toEqual({ sum: 5 });
    if (downstream !== '2024-11-05') expect(sum.structuredContent).toEqual({ sum: 5 });
    expect((await client.readResource('memo://today')).contents[0]).toMatchObject({
      uri: 'memo://today',
      text: 'Nothing planned.',
    });
    expect((await client.readResource('memo://notes/monday')).contents[0]).toMatchObject({
      text: 'Note of monday',
    });
    const prompt = await client.getPrompt('explain', { language: 'rust' });
    expect(prompt.messages[0].content).toMatchObject({ text: 'Explain this rust' });
    const completion = await client.complete(
      { type: 'ref/prompt', name: 'explain' },
      { name: 'language', value: 'py' },
    );
    expect(completion.completion.values).toEqual(['python']);
  });

  it('passes the upstream’s questions to the caller, in the caller’s era', async () => {
    const { client, asked } = await through(upstream, downstream);
    const greeting = await client.callTool('greet', {});
    if (downstream === '2024-11-05') {
      // No elicitation before 2025-06-18: the proxy says so rather than asking.
      expect(greeting.isError).toBe(true);
      expect(greeting.content[0].text).toMatch(/not available in protocol revision 2024-11-05/);
      expect(asked).toEqual([]);
    } else {
      expect(greeting.content[0].text).toBe('Hello Ada');
      const era = downstream === '2026-07-28' ? 'modern' : 'legacy';
      expect(asked).toEqual([`${era}: Your name?`]);
    }
    const pondered = await client.callTool('ponder', {});
    expect(pondered.content[0].text).toBe('hi / file:///work');
  });

  it('forwards progress, and a downstream cancel cancels the upstream call', async () => {
    const { client, seen } = await through(upstream, downstream);
    const progress: string[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      'slow',
      { ms: 5000 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(`${p.progress}/${p.total}`);
          controller.abort(new Error('changed my mind'));
        },
      },
    );
    await expect(call).rejects.toThrow('changed my mind');
    expect(progress).toEqual(['1/2']);
    await vi.waitFor(() => expect(seen.aborted).toHaveLength(1));
  });
});

describe('a caller without the capability an upstream question needs', () => {
  it('gets its own era’s refusal: -32021 for a 2026-07-28 caller of a 2025-06-18 server (which is told the caller cannot sample)', async () => {
    const proxy = await createProxy(upstreamServer(), {
      connect: { protocolVersion: '2025-06-18' },
      server: { logger: quiet },
    });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2026-07-28' });
    closers.push(() => client.close());
    await expect(client.callTool('ponder', {})).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it('gets an isError result naming the capability as a 2025-11-25 caller of a 2026-07-28 server', async () => {
    const proxy = await createProxy(upstreamServer(), { server: { logger: quiet } });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const result = await client.callTool('ponder', {});
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/sampling/);
  });
});

describe('a 2026-07-28 caller of a 2025-06-18 server (the era bridge)', () => {
  async function bridge(handlers: InputHandlers | undefined) {
    const proxy = await createProxy(upstreamServer(), {
      connect: { protocolVersion: '2025-06-18' },
      server: { logger: quiet },
      onWarning: () => {},
    });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2026-07-28', handlers });
    closers.push(() => client.close());
    return client;
  }

  it('an input round asks under the key the upstream’s handler chose', async () => {
    const keys: (string | undefined)[] = [];
    const client = await bridge({
      elicitation: (_request, info) => {
        keys.push(info.key);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const result = await client.callTool('sign', {});
    expect(result.content[0].text).toBe('Signed by Ada');
    expect(keys).toEqual(['signature']);
  });

  it('concurrent stateless calls each answer their own question', async () => {
    // Both questions are held until both arrived: on one shared upstream session the second
    // could not be told from the first, and was refused.
    let arrived = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const client = await bridge({
      elicitation: async () => {
        const name = ++arrived === 1 ? 'Ada' : 'Grace';
        if (arrived === 2) release();
        await both;
        return { action: 'accept', content: { name } };
      },
    });
    const results = await Promise.all([client.callTool('greet', {}), client.callTool('greet', {})]);
    expect(results.map((r) => r.content[0].text).sort()).toEqual(['Hello Ada', 'Hello Grace']);
  });

  it('the upstream session declares exactly the input capabilities the caller declared', async () => {
    const elicits = await bridge({ elicitation: () => ({ action: 'decline' }) });
    expect((await elicits.callTool('capabilities', {})).content[0].text).toBe('elicitation');
    const nothing = await bridge(undefined);
    expect((await nothing.callTool('capabilities', {})).content[0].text).toBe('');
  });
});
