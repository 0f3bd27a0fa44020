import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Arg,
  createServer,
  Prompt,
  Resource,
  ResourceNotFoundError,
  Tool,
  type Context,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { checkServerLines } from './support/wire-log.ts';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

class Library {
  @Resource('mem://readme', { description: 'The readme', mimeType: 'text/markdown' })
  readme() {
    return '# Hello';
  }

  @Resource('mem://logo', { mimeType: 'image/png' })
  logo() {
    return Buffer.from(PNG, 'base64');
  }

  @Resource('mem://books/{id}', {
    description: 'A book by id',
    mimeType: 'application/json',
    input: z.object({ id: z.coerce.number().int().positive() }),
    complete: { id: ['1', '2', '10'] },
    list: 'listBooks',
  })
  book({ id }: { id: number }) {
    if (id > 2) throw new ResourceNotFoundError(`mem://books/${id}`);
    return { id, title: id === 1 ? 'Dune' : 'Emma' };
  }

  listBooks() {
    return [1, 2].map((id) => ({ uri: `mem://books/${id}`, name: `book-${id}` }));
  }

  @Resource('mem://dirs/{a}/{b}')
  pair({ a, b }: { a: string; b: string }) {
    return `${a}|${b}`;
  }

  @Prompt({
    description: 'Review code',
    input: z.object({ language: z.string().describe('The language'), code: z.string() }),
  })
  review({ language, code }: { language: string; code: string }) {
    return [
      { role: 'user', content: `Review this ${language}:` },
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'assistant', content: code },
    ];
  }

  @Prompt('Say hi')
  hello(
    @Arg('name', z.string(), {
      complete: (v) => ['Ada', 'Alan', 'Grace'].filter((n) => n.startsWith(v)),
    })
    name: string,
  ) {
    return `Hi ${name}`;
  }

  @Tool({ description: 'Counts with progress and logs', input: z.object({ to: z.number() }) })
  async count({ to }: { to: number }, ctx: Context) {
    for (let i = 1; i <= to; i++) {
      ctx.progress(i, to, `step ${i}`);
      ctx.progress(i - 0.5); // not increasing: dropped
      ctx.log.debug(`debug ${i}`);
      ctx.log.info(`info ${i}`);
    }
    return 'counted';
  }

  @Tool({ description: 'Asks for a name', input: z.object({}) })
  async ask(_: object, ctx: Context) {
    const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }), {
      timeoutMs: 200,
    });
    return answer.action === 'accept'
      ? `Hello ${answer.content.name}`
      : `no answer: ${answer.action}`;
  }

  @Tool({ description: 'Samples', input: z.object({}) })
  async think(_: object, ctx: Context) {
    const result = await ctx.sample('What is 2+2?', { timeoutMs: 1000 });
    const [block] = [result.content].flat();
    return `model said ${block.type === 'text' ? block.text : block.type}`;
  }

  @Tool({ description: 'Roots', input: z.object({}) })
  async where(_: object, ctx: Context) {
    return (await ctx.roots()).map((r) => r.uri).join(',');
  }

  // Deprecated (server.resources.updated replaces it): this test shows it still works.
  @Tool({ description: 'Touches a resource', input: z.object({ uri: z.string() }) })
  touch({ uri }: { uri: string }, ctx: Context) {
    ctx.resourceUpdated(uri);
    return 'touched';
  }
}

class Extra {
  @Tool('Added at runtime')
  extra() {
    return 'extra';
  }
}

const server = () => createServer({ name: 'lib', version: '1.0.0', providers: [Library] });

async function client(
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
  handlers = {},
): Promise<TestClient> {
  return connectTestClient(server(), { protocolVersion, capabilities, handlers });
}

function schemaValid(c: TestClient, revision: string) {
  expect(checkServerLines(c.wire, revision)).toEqual([]);
}

describe('resources', () => {
  it('lists static and enumerated resources, templates, and reads text, blobs and templates', async () => {
    const c = await client();
    expect((await c.request('resources/list')).resources).toEqual([
      { uri: 'mem://readme', name: 'readme', description: 'The readme', mimeType: 'text/markdown' },
      { uri: 'mem://logo', name: 'logo', mimeType: 'image/png' },
      { uri: 'mem://books/1', name: 'book-1' },
      { uri: 'mem://books/2', name: 'book-2' },
    ]);
    expect(
      (
        await c.request<{ resourceTemplates: { uriTemplate: string }[] }>(
          'resources/templates/list',
        )
      ).resourceTemplates.map((t) => t.uriTemplate),
    ).toEqual(['mem://books/{id}', 'mem://dirs/{a}/{b}']);
    expect(await c.readResource('mem://readme')).toEqual({
      contents: [{ uri: 'mem://readme', mimeType: 'text/markdown', text: '# Hello' }],
    });
    expect(await c.readResource('mem://logo')).toEqual({
      contents: [{ uri: 'mem://logo', mimeType: 'image/png', blob: PNG }],
    });
    expect(await c.readResource('mem://books/2')).toEqual({
      contents: [
        { uri: 'mem://books/2', mimeType: 'application/json', text: '{"id":2,"title":"Emma"}' },
      ],
    });
    expect(await c.readResource('mem://dirs/x%20y/z')).toEqual({
      contents: [{ uri: 'mem://dirs/x%20y/z', mimeType: 'text/plain', text: 'x y|z' }],
    });
    schemaValid(c, '2025-11-25');
  });

  it('answers unknown URIs with -32002 and the uri in data; bad variables and bad URIs with -32602', async () => {
    const c = await client();
    await expect(c.readResource('mem://nope')).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'mem://nope' },
    });
    await expect(c.readResource('mem://books/7')).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'mem://books/7' },
    });
    // {a}/{b} never swallows an extra segment.
    await expect(c.readResource('mem://dirs/a/b/c')).rejects.toMatchObject({ code: -32002 });
    await expect(c.readResource('mem://books/abc')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('id'),
    });
    await expect(c.readResource('not a uri')).rejects.toMatchObject({ code: -32602 });
    await expect(c.request('resources/read', {})).rejects.toMatchObject({ code: -32602 });
    expect(await c.request('ping')).toEqual({});
    schemaValid(c, '2025-11-25');
  });

  it('notifies only subscribed sessions of updates, until they unsubscribe', async () => {
    const srv = server();
    const a = await connectTestClient(srv);
    const b = await connectTestClient(srv);
    await a.request('resources/subscribe', { uri: 'mem://readme' });
    await b.callTool('touch', { uri: 'mem://readme' });
    srv.resources.updated('mem://logo');
    await a.request('ping');
    expect(a.notifications).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'mem://readme' } },
    ]);
    expect(b.notifications).toEqual([]);
    await a.request('resources/unsubscribe', { uri: 'mem://readme' });
    srv.resources.updated('mem://readme');
    await a.request('ping');
    expect(a.notifications).toHaveLength(1);
    schemaValid(a, '2025-11-25');
  });
});

describe('prompts and completion', () => {
  it('lists prompts with their arguments and renders messages', async () => {
    const c = await client();
    expect((await c.request('prompts/list')).prompts).toEqual([
      {
        name: 'review',
        description: 'Review code',
        arguments: [
          { name: 'language', description: 'The language', required: true },
          { name: 'code', required: true },
        ],
      },
      { name: 'hello', description: 'Say hi', arguments: [{ name: 'name', required: true }] },
    ]);
    expect(await c.getPrompt('review', { language: 'ts', code: 'x()' })).toEqual({
      description: 'Review code',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this ts:' } },
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'text', text: 'x()' } },
      ],
    });
    expect(await c.getPrompt('hello', { name: 'Ada' })).toEqual({
      description: 'Say hi',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }],
    });
    await expect(c.getPrompt('review', { language: 'ts' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('code: is required'),
    });
    await expect(c.getPrompt('nope')).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown prompt: nope',
    });
    schemaValid(c, '2025-11-25');
  });

  it('completes prompt arguments and template variables, and advertises completions', async () => {
    const c = await client();
    expect(c.initializeResult.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    const prompt = await c.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'hello' },
      argument: { name: 'name', value: 'A' },
    });
    expect(prompt.completion).toEqual({ values: ['Ada', 'Alan'], total: 2, hasMore: false });
    const resource = await c.request<{ completion: { values: string[] } }>('completion/complete', {
      ref: { type: 'ref/resource', uri: 'mem://books/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(resource.completion.values).toEqual(['1', '10']);
    await expect(
      c.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'missing' },
        argument: { name: 'x', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    schemaValid(c, '2025-11-25');
  });
});

describe('the handler context', () => {
  it('sends progress in increasing order and logs filtered by logging/setLevel', async () => {
    const c = await client();
    await c.request('logging/setLevel', { level: 'info' });
    expect(await c.callTool('count', { to: 3 }, { progressToken: 'p1' })).toEqual({
      content: [{ type: 'text', text: 'counted' }],
    });
    const progress = c.notifications
      .filter((n) => n.method === 'notifications/progress')
      .map((n) => n.params);
    expect(progress).toEqual(
      [1, 2, 3].map((i) => ({ progressToken: 'p1', progress: i, total: 3, message: `step ${i}` })),
    );
    const logs = c.notifications
      .filter((n) => n.method === 'notifications/message')
      .map((n) => n.params);
    expect(logs).toEqual([1, 2, 3].map((i) => ({ level: 'info', data: `info ${i}` })));
    await expect(c.request('logging/setLevel', { level: 'loud' })).rejects.toMatchObject({
      code: -32602,
    });
    schemaValid(c, '2025-11-25');
  });

  it('drops the progress message before 2025-03-26 and sends no progress without a token', async () => {
    const c = await client('2024-11-05');
    await c.callTool('count', { to: 1 }, { progressToken: 7 });
    await c.callTool('count', { to: 1 });
    expect(
      c.notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params),
    ).toEqual([{ progressToken: 7, progress: 1, total: 1 }]);
    schemaValid(c, '2024-11-05');
  });

  it('elicits, samples and lists roots through the client handlers', async () => {
    const c = await client(
      '2025-11-25',
      { elicitation: {}, sampling: {}, roots: {} },
      {
        'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }),
        'sampling/createMessage': (p: any) => ({
          role: 'assistant',
          model: 'm',
          content: { type: 'text', text: `4 (${p.messages[0].content.text})` },
        }),
        'roots/list': () => ({ roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }),
      },
    );
    expect((await c.callTool('ask', {})).content[0].text).toBe('Hello Ada');
    expect((await c.callTool('think', {})).content[0].text).toBe('model said 4 (What is 2+2?)');
    expect((await c.callTool('where', {})).content[0].text).toBe('file:///a,file:///b');
    const outbound = c.wire
      .filter((w) => w.dir === 's2c')
      .map((w) => JSON.parse(w.line))
      .filter((m) => m.method && m.id !== undefined);
    expect(outbound.map((m) => m.method)).toEqual([
      'elicitation/create',
      'sampling/createMessage',
      'roots/list',
    ]);
    expect(outbound[0].params).toEqual({
      message: 'Your name?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      },
    });
    schemaValid(c, '2025-11-25');
  });

  it('refuses clearly when the client lacks the capability or the revision, and times out unanswered questions', async () => {
    const none = await client('2025-11-25');
    const refused = await none.callTool('ask', {});
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('"elicitation"') }],
    });
    const old = await client('2025-03-26', { elicitation: {} });
    expect((await old.callTool('ask', {})).content[0].text).toContain('2025-06-18');
    const silent = await client(
      '2025-11-25',
      { elicitation: {} },
      { 'elicitation/create': () => new Promise(() => {}) },
    );
    const timedOut = await silent.callTool('ask', {});
    expect(timedOut).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringContaining('did not answer elicitation/create within 200 ms') },
      ],
    });
    expect(
      silent.wire
        .map((w) => JSON.parse(w.line))
        .some((m) => m.method === 'notifications/cancelled'),
    ).toBe(true);
    expect(await silent.request('ping')).toEqual({});
    schemaValid(silent, '2025-11-25');
  });
});

describe('runtime changes', () => {
  it('adds, disables, enables and removes members, telling connected clients', async () => {
    const srv = server();
    const c = await connectTestClient(srv);
    srv.add(new Extra());
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('extra');
    srv.tools.disable('extra');
    expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('extra');
    await expect(c.callTool('extra')).rejects.toMatchObject({ code: -32602 });
    srv.tools.enable('extra');
    expect((await c.callTool('extra')).content[0].text).toBe('extra');
    expect(srv.tools.remove('extra')).toBe(true);
    expect(srv.tools.remove('extra')).toBe(false);
    srv.prompts.disable('hello');
    srv.resources.disable('mem://books/{id}');
    await expect(c.readResource('mem://books/1')).rejects.toMatchObject({ code: -32002 });
    await c.request('ping');
    expect(c.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect(() =>
      createServer({ name: 'x', version: '1', providers: [Library] }).add(new Library()),
    ).toThrow(/Duplicate/);
    schemaValid(c, '2025-11-25');
  });
});
