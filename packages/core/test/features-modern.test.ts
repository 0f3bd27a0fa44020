import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, Tool, type Context } from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { checkServerLines } from './support/wire-log.ts';

const MODERN = '2026-07-28';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'modern', version: '1.0.0' } };

/** The fields of a 2026-07-28 result these tests read. */
type ModernResult = {
  resultType: string;
  inputRequests: Record<string, unknown>;
  requestState: string;
  content: { type: string; text: string }[];
};

let counter = 0;

class Modern {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }, ctx: Context) {
    ctx.log.info(`echo ${text}`);
    return text;
  }

  @Tool({ description: 'Counts, then asks twice in sequence', input: z.object({}) })
  async twice(_: object, ctx: Context) {
    counter++;
    const first = await ctx.elicit('First?', z.object({ a: z.string() }));
    const second = await ctx.elicit('Second?', z.object({ b: z.string() }));
    return `${first.action === 'accept' ? first.content.a : '-'}+${second.action === 'accept' ? second.content.b : '-'} (runs: ${counter})`;
  }

  @Tool({ description: 'Asks two questions at once', input: z.object({}) })
  async together(_: object, ctx: Context) {
    const [x, y] = await Promise.all([
      ctx.elicit('X?', z.object({ x: z.string() })),
      ctx.sample('Y?'),
    ]);
    const [said] = [y.content].flat();
    return `${x.action === 'accept' ? x.content.x : '-'}/${said.type === 'text' ? said.text : said.type}`;
  }

  @Resource('mem://doc', { mimeType: 'text/plain' })
  doc() {
    return 'doc';
  }

  @Prompt({ description: 'Asks for context', input: z.object({}) })
  async contextual(_: object, ctx: Context) {
    const answer = await ctx.elicit('Context?', z.object({ context: z.string() }), {
      key: 'user_context',
    });
    return `Use ${answer.action === 'accept' ? answer.content.context : 'nothing'}`;
  }
}

const key = 'k'.repeat(32);
const server = () =>
  createServer({
    name: 'modern',
    version: '1.0.0',
    providers: [Modern],
    inputRounds: { requestStateKey: key },
  });

const answerAll = {
  'elicitation/create': (p: any) => ({
    action: 'accept',
    content: { a: 'A', b: 'B', x: 'X', context: 'ctx' }[p.message[0].toLowerCase() as 'a'] ?? {
      a: 'A',
      b: 'B',
      x: 'X',
      context: 'ctx',
    },
  }),
  'sampling/createMessage': () => ({
    role: 'assistant',
    model: 'm',
    content: { type: 'text', text: 'Y!' },
  }),
};

function elicitAnswer(p: any) {
  const byMessage: Record<string, object> = {
    'First?': { a: 'A' },
    'Second?': { b: 'B' },
    'X?': { x: 'X' },
    'Context?': { context: 'ctx' },
  };
  return { action: 'accept', content: byMessage[p.message] };
}

async function modern(
  capabilities: Record<string, unknown> = { elicitation: {}, sampling: {} },
  srv = server(),
): Promise<TestClient> {
  return connectTestClient(srv, {
    protocolVersion: MODERN,
    capabilities,
    handlers: { ...answerAll, 'elicitation/create': elicitAnswer },
  });
}

const valid = (c: TestClient) => expect(checkServerLines(c.wire, MODERN)).toEqual([]);

describe('2026-07-28 requests', () => {
  it('discovers, lists and calls with resultType, serverInfo and cache hints', async () => {
    const c = await modern();
    expect(c.initializeResult).toEqual({
      supportedVersions: [MODERN],
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
      },
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: SERVER_INFO,
    });
    const list = await c.listTools();
    expect(list).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: SERVER_INFO,
    });
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'twice', 'together']);
    expect(await c.callTool('echo', { text: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    expect(await c.readResource('mem://doc')).toMatchObject({
      contents: [{ text: 'doc' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
    valid(c);
  });

  it('answers removed methods with -32601 and a missing resource with -32602 + data.uri', async () => {
    const c = await modern();
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'initialize']) {
      await expect(c.request(method, { uri: 'mem://doc', level: 'info' })).rejects.toMatchObject({
        code: -32601,
      });
    }
    await expect(c.readResource('mem://missing')).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'mem://missing' },
    });
    valid(c);
  });

  it('checks the envelope on every request: missing keys -32602, unknown version -32022', async () => {
    const c = await modern();
    await c.listTools(); // the first enveloped request pins the connection to 2026-07-28
    await expect(c.rawRequest('tools/list', {})).rejects.toMatchObject({
      code: -32602,
      data: { envelope: { missing: ['_meta'] } },
    });
    await expect(c.rawRequest('tools/list', { _meta: { [V]: MODERN } })).rejects.toMatchObject({
      code: -32602,
      data: { envelope: { key: CAPS, problem: 'missing' } },
    });
    await expect(
      c.rawRequest('tools/list', { _meta: { [V]: '1999-01-01', [CAPS]: {} } }),
    ).rejects.toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '1999-01-01' },
    });
    await expect(
      c.rawRequest('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    ).rejects.toMatchObject({ code: -32022 });
    // `requested` is a string in the schema, whatever the client sent.
    await expect(
      c.rawRequest('initialize', { protocolVersion: 2025, capabilities: {} }),
    ).rejects.toMatchObject({
      code: -32022,
      message: 'Unsupported protocol version: 2025',
      data: { supported: [MODERN], requested: '2025' },
    });
    await expect(
      c.rawRequest('initialize', { protocolVersion: { v: '2025-11-25' }, capabilities: {} }),
    ).rejects.toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '{"v":"2025-11-25"}' },
    });
    valid(c);
  });

  it('sends log messages only when the request carries a logLevel', async () => {
    const c = await modern();
    await c.callTool('echo', { text: 'quiet' });
    expect(c.notifications).toEqual([]);
    await c.request('tools/call', {
      name: 'echo',
      arguments: { text: 'loud' },
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    expect(c.notifications).toEqual([
      { method: 'notifications/message', params: { level: 'info', data: 'echo loud' } },
    ]);
    valid(c);
  });
});

describe('2026-07-28 input rounds', () => {
  it('resumes the waiting handler: code before each await runs once, both answers arrive', async () => {
    counter = 0;
    const c = await modern();
    const result = await c.callTool('twice', {});
    expect(result.content[0].text).toBe('A+B (runs: 1)');
    const interim = c.wire
      .filter((w) => w.dir === 's2c')
      .map((w) => JSON.parse(w.line))
      .filter((m) => m.result?.resultType === 'input_required');
    expect(interim).toHaveLength(2);
    expect(interim[0].result.inputRequests).toEqual({
      input_1: {
        method: 'elicitation/create',
        params: {
          message: 'First?',
          requestedSchema: {
            type: 'object',
            properties: { a: { type: 'string' } },
            required: ['a'],
          },
        },
      },
    });
    expect(typeof interim[0].result.requestState).toBe('string');
    valid(c);
  });

  it('replays on another instance with the answers carried in the signed state', async () => {
    counter = 0;
    const first = await modern(undefined, server());
    const round1 = await first.rawRequest<ModernResult>('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {} } },
    });
    expect(round1.resultType).toBe('input_required');
    // A different server instance (as behind a load balancer) gets the retry: it replays.
    const second = await modern(undefined, server());
    const round2 = await second.rawRequest<ModernResult>('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {} } },
      inputResponses: { input_1: { action: 'accept', content: { a: 'A' } } },
      requestState: round1.requestState,
    });
    expect(Object.keys(round2.inputRequests)).toEqual(['input_2']);
    const third = await modern(undefined, server());
    const done = await third.rawRequest<ModernResult>('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {} } },
      inputResponses: { input_2: { action: 'accept', content: { b: 'B' } } },
      requestState: round2.requestState,
    });
    // Answers accumulate across rounds: round 3 only sent input_2, yet both are there; each
    // instance ran the handler from the top once (replay).
    expect(done.content[0].text).toBe('A+B (runs: 3)');
    expect(done.resultType).toBe('complete');
  });

  it('refuses a tampered requestState with -32602', async () => {
    const c = await modern();
    const round1 = await c.rawRequest<ModernResult>('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {} } },
    });
    await expect(
      c.rawRequest<ModernResult>('tools/call', {
        name: 'twice',
        arguments: {},
        _meta: { [V]: MODERN, [CAPS]: { elicitation: {} } },
        inputResponses: {},
        requestState: `${round1.requestState}-TAMPERED`,
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('asks questions raised together in one round, and asks again for a missing answer', async () => {
    const c = await modern();
    const round1 = await c.rawRequest<ModernResult>('tools/call', {
      name: 'together',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {}, sampling: {} } },
    });
    expect(Object.values(round1.inputRequests).map((r: any) => r.method)).toEqual([
      'elicitation/create',
      'sampling/createMessage',
    ]);
    const again = await c.rawRequest<ModernResult>('tools/call', {
      name: 'together',
      arguments: {},
      _meta: { [V]: MODERN, [CAPS]: { elicitation: {}, sampling: {} } },
      // Only input_1 is answered (a key the round did not ask is refused: security-rounds.test.ts).
      inputResponses: { input_1: { action: 'accept', content: { x: 'X' } } },
      requestState: round1.requestState,
    });
    expect(Object.keys(again.inputRequests)).toEqual(['input_2']);
    expect(await c.callTool('together', {})).toMatchObject({ content: [{ text: 'X/Y!' }] });
  });

  it('ignores answers sent without a requestState: the question is asked', async () => {
    const c = await modern();
    const _meta = { [V]: MODERN, [CAPS]: { elicitation: {} } };
    const rendered = await c.rawRequest<ModernResult>('prompts/get', {
      name: 'contextual',
      arguments: {},
      _meta,
      inputResponses: { user_context: { action: 'accept', content: { context: 'given' } } },
    });
    expect(rendered.resultType).toBe('input_required');
    expect(Object.keys(rendered.inputRequests)).toEqual(['user_context']);
    valid(c);
  });

  it('answers -32021 naming the capability before anything is sent', async () => {
    const c = await modern({});
    await expect(c.callTool('twice', {})).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(c.wire.some((w) => w.line.includes('input_required'))).toBe(false);
  });

  it('works for prompts/get too, with an explicit input key', async () => {
    const c = await modern();
    const result = await c.getPrompt('contextual', {});
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use ctx' } }]);
    expect(c.wire.some((w) => w.line.includes('"user_context"'))).toBe(true);
    valid(c);
  });
});

describe('subscriptions/listen', () => {
  it('acknowledges first, sends only opted-in notifications tagged with the subscription id, and ends on cancel', async () => {
    const srv = server();
    const c = await modern(undefined, srv);
    const listening = c.rawRequest('subscriptions/listen', {
      _meta: { [V]: MODERN, [CAPS]: {} },
      notifications: {
        toolsListChanged: true,
        promptsListChanged: false,
        resourceSubscriptions: ['mem://doc'],
      },
    });
    listening.catch(() => {});
    await c.callTool('echo', { text: 'sync' });
    srv.prompts.disable('contextual');
    srv.tools.disable('together');
    srv.resources.updated('mem://doc');
    srv.resources.updated('mem://other');
    await c.callTool('echo', { text: 'sync' });
    const tag = { 'io.modelcontextprotocol/subscriptionId': 1 };
    expect(c.notifications).toEqual([
      {
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['mem://doc'] },
          _meta: tag,
        },
      },
      { method: 'notifications/tools/list_changed', params: { _meta: tag } },
      { method: 'notifications/resources/updated', params: { uri: 'mem://doc', _meta: tag } },
    ]);
    srv.endSubscriptions();
    expect(await listening).toEqual({ _meta: { ...tag, ...SERVER_INFO }, resultType: 'complete' });
    valid(c);
  });
});
