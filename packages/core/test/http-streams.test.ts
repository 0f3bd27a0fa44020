import { afterEach, describe, expect, it } from 'vitest';
import { aborted, gates, httpFixture } from './support/http-fixture.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import {
  initializeBody,
  JSON_AND_SSE,
  SURFACES,
  type RawResponse,
  type Surface,
} from './support/http-surfaces.ts';

let surface: Surface | undefined;
afterEach(async () => {
  await surface?.close();
  surface = undefined;
});

async function open(s: Surface, capabilities: Record<string, unknown> = {}): Promise<string> {
  const res = await s.send({
    method: 'POST',
    path: '/mcp',
    headers: JSON_AND_SSE,
    body: initializeBody('2025-11-25', capabilities),
  });
  await res.text();
  return res.header('mcp-session-id')!;
}

function post(s: Surface, session: string, body: unknown): Promise<RawResponse> {
  return s.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
    body: JSON.stringify(body),
  });
}

async function events(res: RawResponse): Promise<{ id?: string; data: string }[]> {
  const out: { id?: string; data: string }[] = [];
  for (let e = await res.nextEvent(); e; e = await res.nextEvent()) out.push(e);
  return out;
}

const schema = mcpSchema('2025-11-25');

describe.each(SURFACES)('Streamable HTTP streams (%s)', (_name, make) => {
  it('answers plain calls as JSON and calls that report progress as SSE ending with the result', async () => {
    surface = await make(httpFixture());
    const session = await open(surface);
    const plain = await post(surface, session, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' } },
    });
    expect(plain.header('content-type')).toBe('application/json');
    await post(surface, session, {
      jsonrpc: '2.0',
      id: 3,
      method: 'logging/setLevel',
      params: { level: 'info' },
    }).then((r) => r.text());
    const streamed = await post(surface, session, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'work', arguments: { steps: 2 }, _meta: { progressToken: 'tok' } },
    });
    expect(streamed.header('content-type')).toBe('text/event-stream');
    const received = await events(streamed);
    // The priming event (an id and empty data) comes first, then the messages in order.
    expect(received[0]).toMatchObject({ data: '' });
    const messages = received.slice(1).map((e) => JSON.parse(e.data));
    expect(messages.map((m) => m.method ?? `result:${m.id}`)).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'result:4',
    ]);
    expect(messages[4].result.content[0].text).toBe('did 2');
    for (const m of messages)
      expect(schema.check(m, m.id === 4 ? 'tools/call' : undefined)).toEqual([]);
    expect(received.slice(1).every((e) => typeof e.id === 'string')).toBe(true);
  });

  it('sends unsolicited notifications on the GET stream, and only one GET stream per session', async () => {
    const server = httpFixture();
    surface = await make(server);
    const session = await open(surface);
    const get = await surface.send({
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session },
    });
    expect(get.status).toBe(200);
    const second = await surface.send({
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session },
    });
    expect(second.status).toBe(409);
    server.tools.disable('echo');
    const event = await get.nextEvent();
    expect(JSON.parse(event!.data)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    get.abort();
  });

  it('carries an elicitation on the POST stream and takes the answer as a POSTed response (202)', async () => {
    surface = await make(httpFixture());
    const session = await open(surface, { elicitation: {} });
    const call = await post(surface, session, {
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: { name: 'ask', arguments: {} },
    });
    await call.nextEvent(); // priming
    const question = JSON.parse((await call.nextEvent())!.data);
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } });
    expect(schema.check(question)).toEqual([]);
    const answer = await post(surface, session, {
      jsonrpc: '2.0',
      id: question.id,
      result: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(answer.status).toBe(202);
    const result = JSON.parse((await call.nextEvent())!.data);
    expect(result).toEqual({
      jsonrpc: '2.0',
      id: 10,
      result: { content: [{ type: 'text', text: 'hi Ada' }] },
    });
  });

  it('resumes a lost stream with Last-Event-ID, replaying exactly the missed messages', async () => {
    surface = await make(httpFixture());
    const session = await open(surface);
    const call = await post(surface, session, {
      jsonrpc: '2.0',
      id: 20,
      method: 'tools/call',
      params: { name: 'wait', arguments: { key: `resume-${_name}` }, _meta: { progressToken: 1 } },
    });
    await call.nextEvent(); // priming
    const first = await call.nextEvent();
    expect(JSON.parse(first!.data).method).toBe('notifications/progress');
    call.abort();
    await new Promise((r) => setTimeout(r, 20));
    gates.get(`resume-${_name}`)!();
    await new Promise((r) => setTimeout(r, 20));
    const resumed = await surface.send({
      method: 'GET',
      path: '/mcp',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'last-event-id': first!.id!,
      },
    });
    expect(resumed.status).toBe(200);
    const replay = await events(resumed);
    expect(replay.map((e) => JSON.parse(e.data))).toEqual([
      {
        jsonrpc: '2.0',
        id: 20,
        result: { content: [{ type: 'text', text: `released resume-${_name}` }] },
      },
    ]);
    expect(aborted.has(`resume-${_name}`)).toBe(false);
  });

  it('a client that left as the answer was written can still resume: an ended stream stays stored', async () => {
    // The server cannot tell a client that read the stream's end from one that had just left
    // (the write succeeds locally), so the stream's events outlive its end for a while. Before,
    // they were dropped at once and such a client's resume got the standalone stream, which
    // never ends: the answer was lost and the client hung.
    surface = await make(httpFixture());
    const session = await open(surface);
    const call = await post(surface, session, {
      jsonrpc: '2.0',
      id: 21,
      method: 'tools/call',
      params: { name: 'work', arguments: { steps: 1 }, _meta: { progressToken: 2 } },
    });
    const received = await events(call);
    const progress = received.find((e) => e.data && JSON.parse(e.data).method);
    expect(JSON.parse(received.at(-1)!.data)).toMatchObject({ id: 21 });
    const resumed = await surface.send({
      method: 'GET',
      path: '/mcp',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'last-event-id': progress!.id!,
      },
    });
    expect(resumed.status).toBe(200);
    const replay = (await events(resumed)).map((e) => JSON.parse(e.data));
    expect(replay.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 21, result: {} });
  });

  it('cancels a call whose client disconnects before any answer started', async () => {
    surface = await make(httpFixture(), { responseMode: 'json' });
    const session = await open(surface);
    const key = `drop-${_name}`;
    const controller = new AbortController();
    const pending = surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 30,
        method: 'tools/call',
        params: { name: 'wait', arguments: { key } },
      }),
      signal: controller.signal,
    });
    pending.catch(() => {});
    for (let i = 0; i < 100 && !gates.has(key); i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    for (let i = 0; i < 100 && !aborted.has(key); i++) await new Promise((r) => setTimeout(r, 5));
    expect(aborted.has(key)).toBe(true);
  });

  it('serves the 2024-11-05 HTTP+SSE transport beside Streamable HTTP', async () => {
    surface = await make(httpFixture());
    const sse = await surface.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    const endpoint = await sse.nextEvent();
    expect(endpoint?.event).toBe('endpoint');
    expect(endpoint?.data).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    const accepted = await surface.send({
      method: 'POST',
      path: endpoint!.data,
      headers: { 'content-type': 'application/json' },
      body: initializeBody('2024-11-05'),
    });
    expect(accepted.status).toBe(202);
    const reply = await sse.nextEvent();
    expect(reply?.event).toBe('message');
    const message = JSON.parse(reply!.data);
    expect(message.result.protocolVersion).toBe('2024-11-05');
    expect(mcpSchema('2024-11-05').check(message, 'initialize')).toEqual([]);
    const unknown = await surface.send({
      method: 'POST',
      path: '/messages?sessionId=nope',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    sse.abort();
  });
});
