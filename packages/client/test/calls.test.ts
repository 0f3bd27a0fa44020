import { connect, OutputSchemaError, RequestTimeoutError, type Progress } from '@mcp-fw/client';
import { describe, expect, it } from 'vitest';
import { fixtureServer, seen } from './support/fixture-server.ts';
import { initialized, scriptedServer } from './support/scripted-server.ts';

// The calls, the same in both eras, against the real mcp-fw server in this process.

const ERAS = ['2026-07-28', '2025-11-25'] as const;

describe.each(ERAS)('calls under %s', (protocolVersion) => {
  it('tools, resources, templates, prompts and completion', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'add',
      'slow',
      'greet',
      'ponder',
      'one',
      'two',
      'three',
    ]);
    const sum = await client.callTool('add', { a: 2, b: 5 });
    expect(sum.structuredContent).toEqual({ sum: 7, detail: { expression: '2 + 5' } });

    expect((await client.listResources()).map((r) => r.uri)).toEqual(['memo://today']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'memo://notes/{day}',
    ]);
    const read = await client.readResource('memo://notes/monday');
    expect(read.contents[0]).toMatchObject({ uri: 'memo://notes/monday', text: 'Note of monday' });

    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['explain']);
    const prompt = await client.getPrompt('explain', { language: 'rust' });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: 'Explain this rust' });

    const { completion } = await client.complete(
      { type: 'ref/prompt', name: 'explain' },
      { name: 'language', value: 'py' },
    );
    expect(completion.values).toEqual(['python']);
    await client.close();
  });

  it('pagination as async iterators: every page, in order, fetched as the loop goes', async () => {
    const client = await connect(fixtureServer({ pageSize: 2 }), { protocolVersion });
    const names: string[] = [];
    for await (const tool of client.tools()) names.push(tool.name);
    expect(names).toEqual(['add', 'slow', 'greet', 'ponder', 'one', 'two', 'three']);

    // Breaking out early fetches no further page.
    const first: string[] = [];
    for await (const tool of client.tools()) {
      first.push(tool.name);
      if (first.length === 1) break;
    }
    expect(first).toEqual(['add']);
    await client.close();
  });

  it('progress callbacks receive each notifications/progress of their call', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    const progress: Progress[] = [];
    const result = await client.callTool(
      'slow',
      { ms: 1 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.content[0].text).toBe('finished');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'started' },
      { progress: 2, total: 3 },
      { progress: 3, total: 3, message: 'done' },
    ]);
    await client.close();
  });

  it('cancellation by AbortSignal rejects the call with the reason and stops the handler on the server', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    await client.listTools();
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 30_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 50);
    const before = seen.aborted.length;
    await expect(call).rejects.toThrow('user gave up');
    await until(() => seen.aborted.length > before);
    expect(seen.aborted.at(-1)).toContain('user gave up');
    await client.close();
  });

  it('a per-call timeout rejects with a RequestTimeoutError naming the call and cancels it on the server', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    await client.listTools();
    const before = seen.aborted.length;
    const failure = await client
      .callTool('slow', { ms: 30_000 }, { timeoutMs: 100 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect((failure as Error).message).toBe(
      'tools/call "slow" got no answer within 100 ms (timeoutMs); the client cancelled it',
    );
    await until(() => seen.aborted.length > before);
    await client.close();
  });

  it('an already-aborted signal sends nothing', async () => {
    const server = scriptedServer({
      'server/discover': () => ({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }),
      initialize: initialized('2025-11-25'),
      'tools/list': () => ({ tools: [] }),
    });
    const client = await connect(server, { protocolVersion });
    const sent = server.methods.length;
    const reason = new Error('too late');
    await expect(client.listTools({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.methods.length).toBe(sent);
    await client.close();
  });
});

describe('structuredContent against the outputSchema', () => {
  const outputSchema = {
    type: 'object',
    properties: {
      sum: { type: 'number' },
      detail: {
        type: 'object',
        properties: { expression: { type: 'string' } },
        required: ['expression'],
      },
    },
    required: ['sum', 'detail'],
  };
  const liar = (structuredContent: unknown) =>
    scriptedServer({
      initialize: () => ({
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'liar', version: '1' },
      }),
      'tools/list': () => ({
        tools: [{ name: 'add', inputSchema: { type: 'object' }, outputSchema }],
      }),
      'tools/call': () => ({ content: [], structuredContent }),
    });

  it('a mismatch is an OutputSchemaError naming the tool and the JSON path', async () => {
    const client = await connect(liar({ sum: 3, detail: { expression: 42 } }));
    const failure = await client.callTool('add', { a: 1, b: 2 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OutputSchemaError);
    expect((failure as OutputSchemaError).tool).toBe('add');
    expect((failure as OutputSchemaError).issues).toEqual([
      { path: '$.detail.expression', message: 'must be string' },
    ]);
    expect((failure as Error).message).toBe(
      'Tool "add" returned structuredContent that does not match its outputSchema: $.detail.expression must be string',
    );
    await client.close();
  });

  it('a missing required field names its path', async () => {
    const client = await connect(liar({ detail: { expression: '1 + 2' } }));
    const failure = (await client
      .callTool('add', {})
      .catch((e: unknown) => e)) as OutputSchemaError;
    expect(failure.issues).toEqual([{ path: '$.sum', message: 'is required' }]);
    await client.close();
  });

  it('no structuredContent while the tool declares an outputSchema is an error too', async () => {
    const client = await connect(liar(undefined));
    const failure = (await client
      .callTool('add', {})
      .catch((e: unknown) => e)) as OutputSchemaError;
    expect(failure).toBeInstanceOf(OutputSchemaError);
    expect(failure.message).toContain('returned no structuredContent');
    await client.close();
  });

  it('a tools/list that fails before the first call leaves the call unchecked, with a warning, not failed', async () => {
    const warnings: string[] = [];
    const server = scriptedServer({
      initialize: initialized('2025-11-25'),
      'tools/call': () => ({ content: [{ type: 'text', text: 'called' }] }),
    });
    const client = await connect(server, { onWarning: (w) => warnings.push(w) });
    expect((await client.callTool('add', {})).content[0].text).toBe('called');
    expect(warnings).toEqual([
      'tools/list failed before calling "add", so its output is not checked: Method not found: tools/list',
    ]);
    // Once: later calls do not list again.
    await client.callTool('add', {});
    expect(server.methods.filter((m) => m === 'tools/list')).toHaveLength(1);
    await client.close();
  });

  it('validateOutput: false returns what the server sent', async () => {
    const client = await connect(liar({ sum: 'three' }), { validateOutput: false });
    expect((await client.callTool('add', {})).structuredContent).toEqual({ sum: 'three' });
    await client.close();
  });
});

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
