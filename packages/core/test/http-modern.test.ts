import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { httpFixture } from './support/http-fixture.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import { SURFACES, type RawResponse, type Surface } from './support/http-surfaces.ts';
import { until } from './support/security-http.ts';
import { patience } from '../../../test-support/patience.ts';

const MODERN = '2026-07-28';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const schema = mcpSchema(MODERN);

let surfaces: Surface[] = [];
afterEach(async () => {
  await Promise.all(surfaces.map((s) => s.close()));
  surfaces = [];
});

const envelope = (extra: Record<string, unknown> = {}) => ({ [V]: MODERN, [CAPS]: {}, ...extra });

function headersFor(method: string, name?: string): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  if (name !== undefined) h['mcp-name'] = name;
  return h;
}

function send(
  s: Surface,
  body: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<RawResponse> {
  return s.send({
    method: 'POST',
    path: '/mcp',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
}

async function json(res: RawResponse): Promise<any> {
  return JSON.parse(await res.text());
}

describe.each(SURFACES)('2026-07-28 over HTTP (%s)', (_name, make) => {
  it('serves discover and lists statelessly: no session minted, JSON bodies, GET/DELETE 405', async () => {
    const s = await make(httpFixture());
    surfaces.push(s);
    const discover = await send(
      s,
      { id: 'd', method: 'server/discover', params: { _meta: envelope() } },
      headersFor('server/discover'),
    );
    expect(discover.status).toBe(200);
    expect(discover.header('mcp-session-id')).toBeUndefined();
    const body = await json(discover);
    expect(body.result).toMatchObject({
      supportedVersions: [MODERN],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(schema.check(body, 'server/discover')).toEqual([]);
    const list = await json(
      await send(
        s,
        { id: 2, method: 'tools/list', params: { _meta: envelope() } },
        headersFor('tools/list'),
      ),
    );
    expect(schema.check(list, 'tools/list')).toEqual([]);
    expect(s.sessionCount()).toBe(0);
    expect(
      (await s.send({ method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream' } }))
        .status,
    ).toBe(405);
    expect((await s.send({ method: 'DELETE', path: '/mcp' })).status).toBe(405);
  });

  it('walks the rejection ladder with the exact code and status of each rung', async () => {
    const s = await make(httpFixture());
    surfaces.push(s);
    const call = (params: Record<string, unknown>) => ({
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' }, ...params },
    });
    const cases: [
      string,
      Record<string, unknown>,
      Record<string, string>,
      number,
      number,
      unknown?,
    ][] = [
      [
        'missing clientCapabilities',
        call({ _meta: { [V]: MODERN } }),
        headersFor('tools/call', 'echo'),
        400,
        -32602,
        { envelope: { key: CAPS, problem: 'missing' } },
      ],
      [
        'invalid logLevel',
        call({ _meta: envelope({ 'io.modelcontextprotocol/logLevel': 'loud' }) }),
        headersFor('tools/call', 'echo'),
        400,
        -32602,
      ],
      [
        'version header disagrees',
        call({ _meta: envelope() }),
        { ...headersFor('tools/call', 'echo'), 'mcp-protocol-version': '2025-11-25' },
        400,
        -32020,
      ],
      [
        'method header disagrees',
        call({ _meta: envelope() }),
        { ...headersFor('prompts/list', 'echo') },
        400,
        -32020,
      ],
      [
        'unsupported version',
        call({ _meta: envelope({ [V]: '2099-01-01' }) }),
        { ...headersFor('tools/call', 'echo'), 'mcp-protocol-version': '2099-01-01' },
        400,
        -32022,
        { supported: [MODERN], requested: '2099-01-01' },
      ],
      [
        'missing MCP-Protocol-Version',
        call({ _meta: envelope() }),
        (({ 'mcp-protocol-version': _, ...h }) => h)(headersFor('tools/call', 'echo')),
        400,
        -32020,
      ],
      ['missing Mcp-Name', call({ _meta: envelope() }), headersFor('tools/call'), 400, -32020],
      [
        'Mcp-Name disagrees',
        call({ _meta: envelope() }),
        headersFor('tools/call', 'other'),
        400,
        -32020,
      ],
      [
        'no envelope but a modern header',
        { id: 7, method: 'tools/list', params: {} },
        headersFor('tools/list'),
        400,
        -32602,
        { envelope: { missing: ['_meta'] } },
      ],
      [
        'removed method',
        { id: 7, method: 'ping', params: { _meta: envelope() } },
        headersFor('ping'),
        404,
        -32601,
      ],
      [
        'enveloped initialize',
        {
          id: 7,
          method: 'initialize',
          params: { _meta: envelope(), protocolVersion: MODERN, capabilities: {} },
        },
        headersFor('initialize'),
        404,
        -32601,
      ],
      [
        'unknown tool (in band)',
        { id: 7, method: 'tools/call', params: { name: 'nope', _meta: envelope() } },
        headersFor('tools/call', 'nope'),
        200,
        -32602,
      ],
      // Several faults at once: the envelope rung wins over the header mismatch and the version.
      [
        'several faults',
        call({ _meta: { [V]: '2099-01-01' } }),
        { ...headersFor('prompts/list'), 'mcp-protocol-version': '2025-11-25' },
        400,
        -32602,
        { envelope: { key: CAPS, problem: 'missing' } },
      ],
    ];
    for (const [label, body, headers, status, code, data] of cases) {
      const res = await send(s, body, headers);
      const answer = await json(res);
      expect({ label, status: res.status, code: answer.error?.code, id: answer.id }).toEqual({
        label,
        status,
        code,
        id: 7,
      });
      if (data !== undefined) expect(answer.error.data).toEqual(data);
    }
    // A method that is not a string, nested deeper than the call stack: still a header
    // mismatch (400), not a server failure.
    const depth = 50_000;
    const text = JSON.stringify({ jsonrpc: '2.0', ...call({ _meta: envelope() }) }).replace(
      '"method":"tools/call"',
      `"method":${'['.repeat(depth)}${']'.repeat(depth)}`,
    );
    const nested = await s.send({
      method: 'POST',
      path: '/mcp',
      headers: headersFor('tools/call', 'echo'),
      body: text,
    });
    const answer = await json(nested);
    expect([nested.status, answer.error.code]).toEqual([400, -32020]);
    expect(answer.error.message).toContain(
      'the body names method (an array nested too deep to show) but the Mcp-Method header names tools/call',
    );
  });

  it('checks Mcp-Param headers for x-mcp-header arguments, decoding =?base64?…?=', async () => {
    class Regional {
      @Tool({
        input: {
          type: 'object',
          properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
          required: ['region'],
        },
      })
      where({ region }: { region: string }) {
        return region;
      }
    }
    const s = await make(createServer({ name: 'r', version: '1', providers: [Regional] }));
    surfaces.push(s);
    const body = (region: string) => ({
      id: 3,
      method: 'tools/call',
      params: { name: 'where', arguments: { region }, _meta: envelope() },
    });
    const ok = await send(s, body('eu'), {
      ...headersFor('tools/call', 'where'),
      'mcp-param-region': 'eu',
    });
    expect((await json(ok)).result.content[0].text).toBe('eu');
    const encoded = await send(s, body('süd'), {
      ...headersFor('tools/call', 'where'),
      'mcp-param-region': `=?base64?${Buffer.from('süd').toString('base64')}?=`,
    });
    expect(encoded.status).toBe(200);
    const missing = await send(s, body('eu'), headersFor('tools/call', 'where'));
    expect([missing.status, (await json(missing)).error.code]).toEqual([400, -32020]);
    const bad = await send(s, body('eu'), {
      ...headersFor('tools/call', 'where'),
      'mcp-param-region': '=?base64?!!!?=',
    });
    expect([bad.status, (await json(bad)).error.code]).toEqual([400, -32020]);
    const padding = await send(s, body('Hello'), {
      ...headersFor('tools/call', 'where'),
      'mcp-param-region': '=?base64?SGVsbG8?=',
    });
    expect([padding.status, (await json(padding)).error.code]).toEqual([400, -32020]);
    // Only a value wrapped at both ends is Base64; without the closing `?=` it is literal.
    const literal = `=?base64?${Buffer.from('Hello').toString('base64')}`;
    const unwrapped = await send(s, body(literal), {
      ...headersFor('tools/call', 'where'),
      'mcp-param-region': literal,
    });
    expect([unwrapped.status, (await json(unwrapped)).result.content[0].text]).toEqual([
      200,
      literal,
    ]);
    // A hostile argument is still the client's fault (400), quoted short in the message.
    const depth = 50_000;
    const deep = {
      id: 4,
      method: 'tools/call',
      params: { name: 'where', arguments: { region: 0 }, _meta: envelope() },
    };
    const deepText = JSON.stringify({ jsonrpc: '2.0', ...deep }).replace(
      '"region":0',
      `"region":${'['.repeat(depth)}${']'.repeat(depth)}`,
    );
    const nested = await s.send({
      method: 'POST',
      path: '/mcp',
      headers: headersFor('tools/call', 'where'),
      body: deepText,
    });
    const nestedError = (await json(nested)).error;
    expect([nested.status, nestedError.code]).toEqual([400, -32020]);
    expect(nestedError.message).toMatch(
      /disagree: argument region is \(an array nested too deep to show\) but the Mcp-Param-Region header is absent$/,
    );
    const long = await send(s, body('x'.repeat(10_000)), headersFor('tools/call', 'where'));
    const longError = (await json(long)).error;
    expect([long.status, longError.code]).toEqual([400, -32020]);
    expect(longError.message).toContain(`argument region is "${'x'.repeat(79)}…`);
    expect(longError.message.length).toBeLessThan(300);
  });

  it('resumes an input round on the same instance, and replays it on another sharing the key', async () => {
    let runs = 0;
    class Asker {
      @Tool({ input: z.object({}) })
      async ask(_: object, ctx: Context) {
        runs++;
        const a = await ctx.elicit('A?', z.object({ a: z.string() }));
        const b = await ctx.elicit('B?', z.object({ b: z.string() }));
        return `${a.action === 'accept' ? a.content.a : ''}${b.action === 'accept' ? b.content.b : ''}`;
      }
    }
    const build = () =>
      createServer({
        name: 'a',
        version: '1',
        providers: [Asker],
        inputRounds: { requestStateKey: 'x'.repeat(32) },
      });
    const one = await make(build());
    const two = await make(build());
    surfaces.push(one, two);
    const caps = envelope({ [CAPS]: { elicitation: {} } });
    const round = (s: Surface, id: number, extra: Record<string, unknown>) =>
      send(
        s,
        { id, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: caps, ...extra } },
        headersFor('tools/call', 'ask'),
      ).then(json);
    const r1 = await round(one, 1, {});
    expect(r1.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { input_1: { method: 'elicitation/create' } },
    });
    expect(schema.check(r1, 'tools/call')).toEqual([]);
    const r2 = await round(one, 2, {
      inputResponses: { input_1: { action: 'accept', content: { a: 'x' } } },
      requestState: r1.result.requestState,
    });
    expect(Object.keys(r2.result.inputRequests)).toEqual(['input_2']);
    expect(runs).toBe(1);
    // The last round lands on the other instance: it replays with the accumulated answers.
    const r3 = await round(two, 3, {
      inputResponses: { input_2: { action: 'accept', content: { b: 'y' } } },
      requestState: r2.result.requestState,
    });
    expect(r3.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'xy' }],
    });
    expect(runs).toBe(2);
    const tampered = await round(two, 4, {
      inputResponses: {},
      requestState: `${r2.result.requestState}x`,
    });
    expect(tampered.error.code).toBe(-32602);
  });

  it('streams a listen subscription: ack first, tagged notifications, cancelled by closing the stream', async () => {
    const server = httpFixture();
    const s = await make(server);
    surfaces.push(s);
    const listen = await send(
      s,
      {
        id: 'sub',
        method: 'subscriptions/listen',
        params: { _meta: envelope(), notifications: { toolsListChanged: true } },
      },
      headersFor('subscriptions/listen'),
    );
    expect(listen.header('content-type')).toBe('text/event-stream');
    const ack = JSON.parse((await listen.nextEvent())!.data);
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' },
      },
    });
    server.tools.disable('echo');
    const changed = JSON.parse((await listen.nextEvent())!.data);
    expect(changed).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' } },
    });
    for (const m of [ack, changed]) expect(schema.check(m)).toEqual([]);
    listen.abort();
    // Until the server has seen the stream close (a fixed 20 ms was too short under load).
    await until(() => server.connectionCount === 1, patience(5_000));
    expect(server.connectionCount).toBe(1); // the stateless connection only; the listener is gone
  });

  it('still serves legacy sessions on the same endpoint', async () => {
    const s = await make(httpFixture());
    surfaces.push(s);
    const init = await s.send({
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      }),
    });
    expect(init.status).toBe(200);
    expect(init.header('mcp-session-id')).toBeDefined();
    expect((await json(init)).result.protocolVersion).toBe('2025-11-25');
  });
});
