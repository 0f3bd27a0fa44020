import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, UserError, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { checkTaskMessage } from './support/ext-tasks-schema.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import { responseOf, sseMessages } from './support/sse-messages.ts';

// Issue #22: the tasks extension (io.modelcontextprotocol/tasks) under 2026-07-28, over real
// HTTP. The official client 2.x does not implement the extension (it refuses a result with
// resultType "task"), so these requests are raw JSON-RPC over fetch, as a client of the
// extension sends them (envelope, Mcp-Method and Mcp-Name headers). Every task message is
// validated against the extension's own schema (vendor/ext-tasks/schema.json).

const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [EXT]: {} } };

/** What the handlers saw, by task-tool call. */
const seen = { aborted: 0 };

class Jobs {
  @Tool({
    description: 'Ships a release after asking for approval',
    input: z.object({ version: z.string() }),
    task: { mode: 'optional', pollIntervalMs: 50 },
  })
  async ship({ version }: { version: string }, ctx: Context) {
    ctx.progress(1, 3, 'building');
    const ok = await ctx.elicit(`Ship ${version}?`, z.object({ confirm: z.boolean() }), {
      key: 'approval',
    });
    return ok.action === 'accept' && ok.content.confirm ? `shipped ${version}` : 'not shipped';
  }

  @Tool({
    description: 'Waits until cancelled',
    input: z.object({}),
    task: { mode: 'optional', pollIntervalMs: 50 },
  })
  async hang(_args: object, ctx: Context) {
    ctx.progress(1, undefined, 'waiting to be cancelled');
    await new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        seen.aborted++;
        reject(ctx.signal.reason);
      });
    });
    return 'never';
  }

  @Tool({ description: 'Answers at once', task: 'optional' })
  quick() {
    return 'done';
  }

  @Tool({ description: 'Fails as a tool', task: 'required' })
  broken(): string {
    throw new UserError('the job failed');
  }

  @Tool({
    description: 'Returns output its schema rejects',
    output: z.object({ count: z.number() }),
    task: 'optional',
  })
  buggy() {
    return { structuredContent: { count: 'many' } } as never;
  }

  @Tool({ description: 'Lives a millisecond', task: { mode: 'optional', ttlMs: 1 } })
  brief() {
    return 'gone soon';
  }

  @Tool({
    description: 'Asks for a name in its request, then greets from a task when it can',
    input: z.object({}),
    task: { mode: 'optional', deferred: true, pollIntervalMs: 50 },
  })
  async greetLater(_args: object, ctx: Context) {
    const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }), {
      key: 'name',
    });
    const detached = await ctx.runAsTask();
    const name = answer.action === 'accept' ? answer.content.name : 'nobody';
    return `Hello, ${name}${detached ? ' (from a task)' : ''}!`;
  }

  @Tool({ description: 'Never a task' })
  plain() {
    return 'plain';
  }
}

let handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.map((h) => h.close()));
  handles = [];
});

async function serve(): Promise<string> {
  const server = createServer({ name: 'jobs', version: '1.0.0', providers: [Jobs] });
  const handle = await serveHttp(server, {
    port: 0,
    // The bearer token names the caller, so tasks are bound to a principal.
    authenticate: (req) => ({ auth: { sub: req.header('authorization') ?? 'anonymous' } }),
  });
  handles.push(handle);
  return handle.url;
}

type Caller = (method: string, params?: Record<string, unknown>) => Promise<any>;

/** A raw 2026-07-28 client: `caps` in every envelope, `user` as its bearer token. */
function caller(url: string, caps: object = WITH_TASKS, user = 'alice'): Caller {
  let id = 0;
  return async (method, params = {}) => {
    const name = (params.taskId ?? params.name) as string | undefined;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: user,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': caps,
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          },
        },
      }),
    });
    return responseOf(response);
  };
}

const definitionOf: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/update': 'UpdateTaskResult',
  'tasks/cancel': 'CancelTaskResult',
};

/** Sends, expects a result, and checks it against the extension's schema. */
async function ok(call: Caller, method: string, params?: Record<string, unknown>): Promise<any> {
  const message = await call(method, params);
  expect(message.error, `${method}: ${JSON.stringify(message.error)}`).toBeUndefined();
  const definition =
    definitionOf[method] ?? (message.result.resultType === 'task' ? 'CreateTaskResult' : undefined);
  if (definition) expect(checkTaskMessage(definition, message.result)).toEqual([]);
  return message.result;
}

/** Polls tasks/get until `until` holds (the client honours pollIntervalMs). */
async function pollUntil(call: Caller, taskId: string, until: (task: any) => boolean) {
  for (;;) {
    const task = await ok(call, 'tasks/get', { taskId });
    if (until(task)) return task;
    await new Promise((r) => setTimeout(r, task.pollIntervalMs));
  }
}

const terminal = (t: any) => ['completed', 'failed', 'cancelled'].includes(t.status);

describe('tasks extension over HTTP (2026-07-28)', () => {
  it('server/discover advertises the extension', async () => {
    const call = caller(await serve());
    const discover = await call('server/discover');
    expect(mcpSchema(MODERN).check(discover, 'server/discover')).toEqual([]);
    expect(discover.result.capabilities.extensions).toEqual({ [EXT]: {} });
    expect(checkTaskMessage('TasksExtensionCapability', {})).toEqual([]);
  });

  it('a task stops for an elicitation halfway, resumes on tasks/update and completes', async () => {
    const call = caller(await serve());
    const created = await ok(call, 'tools/call', { name: 'ship', arguments: { version: '1.2' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 50 });
    expect(created).not.toHaveProperty('result');
    const waiting = await pollUntil(call, created.taskId, (t) => t.status !== 'working');
    expect(waiting).toMatchObject({
      resultType: 'complete',
      status: 'input_required',
      inputRequests: {
        approval: {
          method: 'elicitation/create',
          params: { message: 'Ship 1.2?', requestedSchema: { type: 'object' } },
        },
      },
    });
    // An answer to a key that is not waiting is ignored; the task still waits.
    expect(
      await ok(call, 'tasks/update', { taskId: created.taskId, inputResponses: { other: {} } }),
    ).toMatchObject({ resultType: 'complete' });
    expect((await ok(call, 'tasks/get', { taskId: created.taskId })).status).toBe('input_required');
    const ack = await ok(call, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { approval: { action: 'accept', content: { confirm: true } } },
    });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    const done = await pollUntil(call, created.taskId, terminal);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'shipped 1.2' }] },
    });
    expect(done).not.toHaveProperty('inputRequests');
  });

  it('tool errors complete with isError, protocol errors fail, cancel aborts the handler', async () => {
    const call = caller(await serve());
    const broken = await ok(call, 'tools/call', { name: 'broken' });
    expect(await pollUntil(call, broken.taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'the job failed' }] },
    });
    const buggy = await ok(call, 'tools/call', { name: 'buggy' });
    const failed = await pollUntil(call, buggy.taskId, terminal);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed).not.toHaveProperty('result');

    const before = seen.aborted;
    const hang = await ok(call, 'tools/call', { name: 'hang' });
    // Progress inside a task is its statusMessage: the request that could carry notifications ended.
    expect(
      await pollUntil(call, hang.taskId, (t) => t.statusMessage === 'waiting to be cancelled'),
    ).toMatchObject({ status: 'working', statusMessage: 'waiting to be cancelled' });
    const ack = await ok(call, 'tasks/cancel', { taskId: hang.taskId });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(await ok(call, 'tasks/get', { taskId: hang.taskId })).toMatchObject({
      status: 'cancelled',
    });
    expect(seen.aborted).toBe(before + 1);
  });

  it('without the extension: optional tools answer in the request, required ones and the task methods get -32021', async () => {
    const url = await serve();
    const call = caller(url, { elicitation: {} });
    const quick = await call('tools/call', { name: 'quick' });
    expect(quick.result).toMatchObject({ resultType: 'complete', content: [{ text: 'done' }] });
    const required = { requiredCapabilities: { extensions: { [EXT]: {} } } };
    expect((await call('tools/call', { name: 'broken' })).error).toMatchObject({
      code: -32021,
      data: required,
    });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
      expect((await call(method, { taskId: 'x', inputResponses: {} })).error).toMatchObject({
        code: -32021,
        data: required,
      });
    // A forbidden tool is never a task, and a legacy `task` hint does not make it one.
    const plain = await caller(url)('tools/call', { name: 'plain', task: { ttl: 1000 } });
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    // tasks/result and tasks/list are not part of the extension.
    for (const method of ['tasks/result', 'tasks/list'])
      expect((await caller(url)(method, { taskId: 'x' })).error.code).toBe(-32601);
  });

  it("notifications/tasks on a listen stream: the followed task's changes, each a full DetailedTask", async () => {
    const url = await serve();
    const call = caller(url);
    const task = await ok(call, 'tools/call', { name: 'ship', arguments: { version: '3' } });
    await pollUntil(call, task.taskId, (t) => t.status === 'input_required');
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'alice',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen',
        method: 'subscriptions/listen',
        params: {
          notifications: { taskIds: [task.taskId, 'someone-elses'] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
          },
        },
      }),
    });
    const { next } = sseMessages(response);
    const ack = await next();
    expect(ack.params.notifications).toEqual({ taskIds: [task.taskId] });
    expect(
      checkTaskMessage('TaskSubscriptionAcknowledgedNotifications', ack.params.notifications),
    ).toEqual([]);
    await ok(call, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { approval: { action: 'accept', content: { confirm: true } } },
    });
    const statuses: string[] = [];
    for (;;) {
      const message = await next();
      expect(message.method).toBe('notifications/tasks');
      expect(checkTaskMessage('TaskStatusNotification', message)).toEqual([]);
      statuses.push(message.params.status);
      if (message.params.status === 'completed') {
        expect(message.params.result.content[0].text).toBe('shipped 3');
        break;
      }
    }
    expect(statuses).toEqual(['working', 'completed']);
    controller.abort();
    // Following tasks needs the extension.
    const refused = await caller(url, { elicitation: {} })('subscriptions/listen', {
      notifications: { taskIds: [task.taskId] },
    });
    expect(refused.error).toMatchObject({ code: -32021 });
  });

  it('a deferred tool asks in input rounds first, then ctx.runAsTask() answers the request with the task', async () => {
    const url = await serve();
    for (const [caps, expected] of [
      [WITH_TASKS, 'Hello, Ada (from a task)!'],
      [{ elicitation: {} }, 'Hello, Ada!'],
    ] as const) {
      const call = caller(url, caps);
      const round = await call('tools/call', { name: 'greetLater', arguments: {} });
      expect(round.result).toMatchObject({ resultType: 'input_required' });
      expect(round.result).not.toHaveProperty('taskId');
      const retry = await call('tools/call', {
        name: 'greetLater',
        arguments: {},
        inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: round.result.requestState,
      });
      if (caps === WITH_TASKS) {
        expect(checkTaskMessage('CreateTaskResult', retry.result)).toEqual([]);
        expect(retry.result).not.toHaveProperty('requestState');
        const done = await pollUntil(call, retry.result.taskId, terminal);
        expect(done.result.content[0].text).toBe(expected);
      } else {
        // Without the extension the same call goes on in its request.
        expect(retry.result).toMatchObject({ resultType: 'complete' });
        expect(retry.result.content[0].text).toBe(expected);
      }
    }
  });

  it.each([
    [
      'an unknown task id',
      'tasks/get',
      { taskId: 'no-such-task' },
      'Failed to retrieve task: Task not found',
    ],
    ['a missing task id', 'tasks/get', {}, 'params.taskId'],
    [
      'an unknown task id (update)',
      'tasks/update',
      { taskId: 'nope', inputResponses: {} },
      'Failed to update task: Task not found',
    ],
    [
      'an unknown task id (cancel)',
      'tasks/cancel',
      { taskId: 'nope' },
      'Failed to cancel task: Task not found',
    ],
    ['update without inputResponses', 'tasks/update', { taskId: 'nope' }, 'params.inputResponses'],
  ])('bad input: %s → -32602', async (_what, method, params, message) => {
    const call = caller(await serve());
    const reply = await call(method, params);
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toContain(message);
  });

  it("bad input: another caller's task is not found for reading, answering or cancelling", async () => {
    const url = await serve();
    const alice = caller(url);
    const mallory = caller(url, WITH_TASKS, 'mallory');
    const task = await ok(alice, 'tools/call', { name: 'ship', arguments: { version: '9' } });
    for (const [method, verb] of [
      ['tasks/get', 'retrieve'],
      ['tasks/update', 'update'],
      ['tasks/cancel', 'cancel'],
    ]) {
      const reply = await mallory(method, {
        taskId: task.taskId,
        inputResponses: { approval: { action: 'accept', content: { confirm: true } } },
      });
      expect(reply.error).toMatchObject({
        code: -32602,
        message: `Failed to ${verb} task: Task not found`,
      });
    }
    expect((await ok(alice, 'tasks/get', { taskId: task.taskId })).status).not.toBe('cancelled');
  });

  it('bad input: update of a task not waiting, cancel of a finished task are acknowledged and change nothing', async () => {
    const call = caller(await serve());
    const quick = await ok(call, 'tools/call', { name: 'quick' });
    await pollUntil(call, quick.taskId, terminal);
    await ok(call, 'tasks/update', {
      taskId: quick.taskId,
      inputResponses: { input_1: { action: 'accept', content: {} } },
    });
    await ok(call, 'tasks/cancel', { taskId: quick.taskId });
    expect(await ok(call, 'tasks/get', { taskId: quick.taskId })).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'done' }] },
    });
  });

  it('bad input: an expired task → -32602 "Task has expired"', async () => {
    const call = caller(await serve());
    const brief = await ok(call, 'tools/call', { name: 'brief' });
    expect(brief.ttlMs).toBe(1);
    let reply: any;
    do {
      await new Promise((r) => setTimeout(r, 5));
      reply = await call('tasks/get', { taskId: brief.taskId });
    } while (!reply.error);
    expect(reply.error).toMatchObject({
      code: -32602,
      message: 'Failed to retrieve task: Task has expired',
    });
  });

  it('without authentication each client address has its own task budget; the task id stays the capability', async () => {
    const server = createServer({
      name: 'jobs',
      version: '1.0.0',
      providers: [Jobs],
      limits: { tasks: { maxTasksPerOwner: 1 } },
    });
    const handle = await serveHttp(server, { port: 0 });
    handles.push(handle);
    // Two clients on different loopback addresses, neither authenticated (owner "bearer").
    const from = (localAddress: string) => (method: string, params: Record<string, unknown>) =>
      rawPost(handle.url, localAddress, method, params);
    const first = from('127.0.0.1');
    const second = from('127.0.0.2');
    const task = (await first('tools/call', { name: 'hang', arguments: {} })).result;
    expect(checkTaskMessage('CreateTaskResult', task)).toEqual([]);
    const refused = await first('tools/call', { name: 'hang', arguments: {} });
    expect(refused.result?.isError ?? refused.error).toBeTruthy();
    expect(JSON.stringify(refused)).toContain('limits.tasks.maxTasksPerOwner');
    // The first client's full budget is not the second's.
    const other = (await second('tools/call', { name: 'hang', arguments: {} })).result;
    expect(other).toMatchObject({ resultType: 'task', status: 'working' });
    // Whoever holds the id reads and cancels the task, wherever it calls from.
    expect((await second('tasks/get', { taskId: task.taskId })).result.status).toBe('working');
    await second('tasks/cancel', { taskId: task.taskId });
    expect((await first('tasks/get', { taskId: task.taskId })).result.status).toBe('cancelled');
    await first('tasks/cancel', { taskId: other.taskId });
  });
  it('cancel tasks, then start more: a cancelled task frees its owner budget at once, and the refusal is -32000 naming the limit with 429 and Retry-After', async () => {
    const server = createServer({
      name: 'jobs',
      version: '1.0.0',
      providers: [Jobs],
      limits: { tasks: { maxTasksPerOwner: 2 } },
    });
    const handle = await serveHttp(server, {
      port: 0,
      authenticate: (req) => ({ auth: { sub: req.header('authorization') ?? 'anonymous' } }),
    });
    handles.push(handle);
    const call = caller(handle.url);
    const started = [];
    for (let i = 0; i < 2; i++)
      started.push((await ok(call, 'tools/call', { name: 'hang', arguments: {} })).taskId);
    for (const taskId of started) await ok(call, 'tasks/cancel', { taskId });
    // Both cancelled: the budget is whole again, not held until the tasks' time-to-live ends.
    for (let i = 0; i < 2; i++)
      started.push((await ok(call, 'tools/call', { name: 'hang', arguments: {} })).taskId);
    const refused = await exchange(handle.url, 'tools/call', { name: 'hang', arguments: {} });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.message.error).toMatchObject({
      code: -32000,
      data: { limit: 'tasks.maxTasksPerOwner' },
    });
    expect(refused.message.error.message).toContain('limits.tasks.maxTasksPerOwner');
    for (const taskId of started.slice(2)) await ok(call, 'tasks/cancel', { taskId });
  });
});

/** One 2026-07-28 request as alice, with the response's status and headers. */
async function exchange(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; message: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'alice',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      'mcp-name': String(params.name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 99,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const { status, headers } = response;
  return { status, headers, message: await responseOf(response) };
}

/** One unauthenticated 2026-07-28 request from `localAddress`, as a client there sends it. */
function rawPost(
  url: string,
  localAddress: string,
  method: string,
  params: Record<string, unknown>,
): Promise<any> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      },
    },
  });
  const name = (params.taskId ?? params.name) as string;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          'mcp-name': name,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const data = text.split('\n').find((l) => l.startsWith('data:'));
          resolve(JSON.parse(data ? data.slice(5) : text));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
