// @mcp-fw/cloudflare in real workerd (issue 38): the official clients of both generations
// against a module worker, 2026-07-28 requests served by the Worker itself, legacy sessions each
// held by the Durable Object its id names.
import { join } from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as SseV1 } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../core/test/support/workerd.ts';

const ENTRY = join(import.meta.dirname, 'fixtures/worker.ts');
const SESSIONS = [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }];
const text = (result: any) => result.content[0].text as string;
// `auto`: 2026-07-28 first (server/discover), as the 2.x client negotiates when asked to.
const modernClient = () =>
  new ClientV2(
    { name: 'workers-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );

async function legacyClient(origin: string) {
  const client = new ClientV1({ name: 'workers-test', version: '1.0.0' });
  const transport = new StreamableV1(new URL('/mcp', origin));
  await client.connect(transport);
  return { client, transport };
}

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
let nextId = 1;
/** One stateless 2026-07-28 request that declares the tasks extension (and form elicitation). */
function modernRequest(origin: string, method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.taskId) as string | undefined;
  return fetch(new URL('/mcp', origin), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {
            elicitation: { form: {} },
            extensions: { [TASKS_EXTENSION]: {} },
          },
        },
      },
    }),
  });
}

/** The result of {@link modernRequest}; throws on an error. */
async function modern(origin: string, method: string, params: Record<string, unknown>) {
  const response = await modernRequest(origin, method, params);
  const body = (await response.json()) as any;
  if (!body.result) throw new Error(`${method}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.result;
}

/** Polls tasks/get (each poll a request of its own) until the task leaves `status`. */
async function pollWhile(origin: string, taskId: string, status: string) {
  for (let i = 0; i < 100; i++) {
    const task = await modern(origin, 'tasks/get', { taskId });
    if (task.status !== status) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} stayed ${status} for 100 polls`);
}

/** A 2026-07-28 `subscriptions/listen` stream for tool list changes, read as it comes. */
async function openListen(origin: string) {
  const aborted = new AbortController();
  const response = await fetch(new URL('/mcp', origin), {
    method: 'POST',
    signal: aborted.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let stream = '';
  const count = (what: string) => stream.split(what).length - 1;
  return {
    /** Reads until `what` has come `times` times (5 s at most). */
    async until(what: string, times = 1) {
      const deadline = Date.now() + 5_000;
      while (count(what) < times) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, fail) => {
          timer = setTimeout(
            () => fail(new Error(`no ${what} (×${times}) on the listen stream:\n${stream}`)),
            deadline - Date.now(),
          );
        });
        const { value, done } = await Promise.race([reader.read(), timeout]).finally(() =>
          clearTimeout(timer),
        );
        if (done) throw new Error(`the listen stream ended before ${what}:\n${stream}`);
        stream += value;
      }
    },
    async close() {
      aborted.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

describe('a Worker on workerd', () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker({ entry: ENTRY, durableObjects: SESSIONS });
  }, 30_000);
  afterAll(() => worker?.stop());

  it('an official 2.x client calls tools at 2026-07-28, arguments checked without code generation', async () => {
    const client = modernClient();
    await client.connect(new StreamableV2(new URL('/mcp', worker.origin)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((t: any) => t.name)).toEqual([
        'add',
        'count',
        'where',
        'slow',
        'confirm',
        'toggle_extra',
      ]);
      expect(text(await client.callTool({ name: 'add', arguments: { a: 2 } }))).toBe('3');
      expect(text(await client.callTool({ name: 'where', arguments: {} }))).toBe('worker');
      const refused = await client.callTool({ name: 'add', arguments: { a: 'x' } });
      expect(refused).toMatchObject({ isError: true });
      expect(text(refused)).toBe('Invalid arguments for tool add: a: must be number');
      expect(text(await client.callTool({ name: 'add', arguments: { a: 1, c: 1 } }))).toBe(
        'Invalid arguments for tool add: c: is not an allowed property',
      );
    } finally {
      await client.close();
    }
  }, 20_000);

  it('legacy sessions live in Durable Objects: each session keeps its state and its object', async () => {
    const one = await legacyClient(worker.origin);
    const two = await legacyClient(worker.origin);
    try {
      // The session id names the object that holds it.
      expect(one.transport.sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
      expect(one.transport.sessionId!.split('.')[0]).not.toBe(
        two.transport.sessionId!.split('.')[0],
      );
      for (const n of ['1', '2', '3'])
        expect(text(await one.client.callTool({ name: 'count', arguments: {} }))).toBe(n);
      expect(text(await two.client.callTool({ name: 'count', arguments: {} }))).toBe('1');
      const [whereOne, whereTwo] = await Promise.all(
        [one, two].map(async (c) =>
          text(await c.client.callTool({ name: 'where', arguments: {} })),
        ),
      );
      expect(whereOne).toBe(`object ${one.transport.sessionId!.split('.')[0]}`);
      expect(whereTwo).toBe(`object ${two.transport.sessionId!.split('.')[0]}`);
      expect(text(await one.client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }))).toBe(
        '42',
      );
    } finally {
      await one.transport.terminateSession();
      await Promise.all([one.client.close(), two.client.close()]);
    }
  }, 20_000);

  it('the 2024-11-05 HTTP+SSE transport is served from a Durable Object too', async () => {
    const client = new ClientV1({ name: 'workers-test', version: '1.0.0' });
    const transport = new SseV1(new URL('/sse', worker.origin));
    await client.connect(transport);
    try {
      // The endpoint event's POST URL carries the session id, which names the object.
      const sessionId = (transport as any)._endpoint.searchParams.get('sessionId') as string;
      expect(sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
      for (const n of ['1', '2'])
        expect(text(await client.callTool({ name: 'count', arguments: {} }))).toBe(n);
      expect(text(await client.callTool({ name: 'where', arguments: {} }))).toBe(
        `object ${sessionId.split('.')[0]}`,
      );
    } finally {
      await client.close();
    }
  }, 20_000);

  it('a 2026-07-28 task completes after the request that started it, polled from later requests', async () => {
    const started = await modern(worker.origin, 'tools/call', { name: 'slow', arguments: {} });
    expect(started).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await pollWhile(worker.origin, started.taskId, 'working');
    expect(done.status).toBe('completed');
    // Run by the tasks' Durable Object: a Worker isolate cancels a request's timers with it.
    expect(done.result.content[0].text).toMatch(/^slept, in object [0-9a-f]{64}$/);
  }, 20_000);

  it("a task's question is answered by a later tasks/update, and a later tasks/cancel ends another", async () => {
    const asked = await modern(worker.origin, 'tools/call', { name: 'confirm', arguments: {} });
    const waiting = await pollWhile(worker.origin, asked.taskId, 'working');
    expect(waiting.status).toBe('input_required');
    const [key] = Object.keys(waiting.inputRequests);
    await modern(worker.origin, 'tasks/update', {
      taskId: asked.taskId,
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
    });
    const done = await pollWhile(worker.origin, asked.taskId, 'working');
    expect(done.status).toBe('completed');
    expect(done.result.content[0].text).toMatch(/^accept \{"ok":true\}, in object [0-9a-f]{64}$/);

    const other = await modern(worker.origin, 'tools/call', { name: 'confirm', arguments: {} });
    await pollWhile(worker.origin, other.taskId, 'working');
    await modern(worker.origin, 'tasks/cancel', { taskId: other.taskId });
    expect((await modern(worker.origin, 'tasks/get', { taskId: other.taskId })).status).toBe(
      'cancelled',
    );
  }, 20_000);

  it('a call of a tool that never runs as a task stays in the Worker, the extension declared or not', async () => {
    const result = await modern(worker.origin, 'tools/call', { name: 'where', arguments: {} });
    expect(result.content[0].text).toBe('worker');
  });

  it('a 2026-07-28 listen stream hears a list change made by another request, and workerd reports no cross-request I/O', async () => {
    const listen = await openListen(worker.origin);
    try {
      await listen.until('notifications/subscriptions/acknowledged');
      // Another request, served in the Worker itself, changes the tool list.
      const added = await modern(worker.origin, 'tools/call', {
        name: 'toggle_extra',
        arguments: {},
      });
      expect(added.content[0].text).toBe('added extra');
      await listen.until('notifications/tools/list_changed');
      const removed = await modern(worker.origin, 'tools/call', {
        name: 'toggle_extra',
        arguments: {},
      });
      expect(removed.content[0].text).toBe('removed extra');
      await listen.until('notifications/tools/list_changed', 2);
    } finally {
      await listen.close();
    }
    // The stream was written from the requests that changed the list, without workerd refusing it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(worker.output()).not.toMatch(/different request|hung|canceled this request/i);
  }, 20_000);

  it("a list change made in a legacy session's object reaches 2026-07-28 listen streams too", async () => {
    const listen = await openListen(worker.origin);
    const { client } = await legacyClient(worker.origin);
    try {
      await listen.until('notifications/subscriptions/acknowledged');
      expect(text(await client.callTool({ name: 'toggle_extra', arguments: {} }))).toBe(
        'added extra',
      );
      await listen.until('notifications/tools/list_changed');
      expect(text(await client.callTool({ name: 'toggle_extra', arguments: {} }))).toBe(
        'removed extra',
      );
      await listen.until('notifications/tools/list_changed', 2);
    } finally {
      await client.close();
      await listen.close();
    }
    expect(worker.output()).not.toMatch(/different request|hung|canceled this request/i);
  }, 20_000);

  it('a session id no object minted is an unknown session (404), not a crash', async () => {
    for (const id of ['nope', `${'a'.repeat(64)}.00000000-0000-0000-0000-000000000000`]) {
      const response = await fetch(new URL('/mcp', worker.origin), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error.message).toMatch(/session/i);
    }
  });
});

describe('a Worker without a sessions binding', () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker({
      entry: ENTRY,
      durableObjects: SESSIONS,
      vars: { SESSIONS_OFF: '1' },
    });
  }, 30_000);
  afterAll(() => worker?.stop());

  it('refuses initialize with a 400 naming the sessions option, and serves 2026-07-28', async () => {
    const response = await fetch(new URL('/mcp', worker.origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    expect(body.error.message).toMatch(/2026-07-28 revision only.*sessions option of mcpWorker/);
    await expect(legacyClient(worker.origin)).rejects.toThrow(/sessions option/);

    const client = modernClient();
    await client.connect(new StreamableV2(new URL('/mcp', worker.origin)));
    expect(text(await client.callTool({ name: 'where', arguments: {} }))).toBe('worker');
    await client.close();
  }, 20_000);

  it('refuses a call that would run as a task with a 400 naming the sessions option, instead of a task that never ends', async () => {
    const response = await modernRequest(worker.origin, 'tools/call', {
      name: 'slow',
      arguments: {},
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(
      /runs tasks in a Durable Object.*sessions option of mcpWorker/,
    );
    // Without the extension the same tool answers in the request, as any call.
    const client = modernClient();
    await client.connect(new StreamableV2(new URL('/mcp', worker.origin)));
    expect(text(await client.callTool({ name: 'slow', arguments: {} }))).toBe('slept, in worker');
    await client.close();
  }, 20_000);
});
