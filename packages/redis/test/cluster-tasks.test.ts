import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { checkTaskMessage } from '../../core/test/support/ext-tasks-schema.ts';
import { Cluster, HAPROXY, type NodeProcess, REDIS_SERVER } from './support/processes.ts';
import { until } from './support/raw-http.ts';
import { responseOf, sseMessages } from '../../core/test/support/sse-messages.ts';
import { patience } from '../../../test-support/patience.ts';

// Issue #22: tasks on the shared store. The work of a task runs on the node that started it;
// every node answers for it (tasks/get, tasks/update, tasks/cancel, tasks/result, tasks/list),
// answers and cancels reach the running node on the bus, notifications/tasks reach listen
// streams on other nodes, and a task whose node was killed reads failed on the survivors.
// 2026-07-28 requests go to chosen nodes directly (the official client 2.x does not implement
// the tasks extension, so they are the extension's raw JSON-RPC, every task message checked
// against its schema); the official SDK 1.x drives 2025-11-25 tasks through HAProxy, whose
// x-served-by header names the node that answered.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';
const CAPS = { elicitation: {}, extensions: { [EXT]: {} } };
const RESULT_DEFINITION: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/update': 'UpdateTaskResult',
  'tasks/cancel': 'CancelTaskResult',
};

function meta() {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': CAPS,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

function headers(user: string, method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${user}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** One 2026-07-28 request of `user` to `node`: the JSON-RPC response. */
async function send(
  node: NodeProcess,
  user: string,
  method: string,
  params: Record<string, unknown>,
): Promise<any> {
  const response = await fetch(node.url, {
    method: 'POST',
    headers: headers(user, method, (params.taskId ?? params.name) as string | undefined),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta() } }),
  });
  return responseOf(response);
}

/** Sends, expects a result, and checks it against the extension's schema. */
async function ok(
  node: NodeProcess,
  user: string,
  method: string,
  params: Record<string, unknown>,
): Promise<any> {
  const message = await send(node, user, method, params);
  expect(message.error, `${method} on ${node.name}: ${JSON.stringify(message.error)}`).toBe(
    undefined,
  );
  const definition =
    RESULT_DEFINITION[method] ??
    (message.result.resultType === 'task' ? 'CreateTaskResult' : undefined);
  if (definition) expect(checkTaskMessage(definition, message.result)).toEqual([]);
  return message.result;
}

/** Polls tasks/get on `node` at the task's poll interval until `done` holds. */
async function pollOn(
  node: NodeProcess,
  user: string,
  taskId: string,
  done: (task: any) => boolean,
  deadlineMs = 15_000,
): Promise<any> {
  const deadline = Date.now() + patience(deadlineMs);
  for (;;) {
    const task = await ok(node, user, 'tasks/get', { taskId });
    if (done(task)) return task;
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} on ${node.name} is still ${task.status}`);
    await new Promise((r) => setTimeout(r, task.pollIntervalMs));
  }
}

const terminal = (t: any) => ['completed', 'failed', 'cancelled'].includes(t.status);

/** A `subscriptions/listen` stream on `node` following `taskIds`; `next()` reads a message. */
async function listen(node: NodeProcess, user: string, taskIds: string[]) {
  const controller = new AbortController();
  const response = await fetch(node.url, {
    method: 'POST',
    signal: controller.signal,
    headers: headers(user, 'subscriptions/listen'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: { notifications: { taskIds }, _meta: meta() },
    }),
  });
  const { next } = sseMessages(response);
  return { next, close: () => controller.abort() };
}

describe.skipIf(!ready)('tasks across nodes (3 processes, HAProxy, Redis)', () => {
  let cluster: Cluster;
  const stderr = new Map<string, string>();

  beforeAll(async () => {
    // Task tools on, and the bearer token names the caller (tasks are bound to it).
    cluster = await Cluster.start(3, { TASK_TOOLS: '1', BEARER_AUTH: '1' });
    for (const node of cluster.nodes) {
      stderr.set(node.name, '');
      node.child.stderr?.on('data', (chunk: Buffer) => {
        stderr.set(node.name, stderr.get(node.name) + chunk.toString());
      });
    }
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('2026-07-28: a task started on a is read on b, answered on c, followed from c, and completes on a', async () => {
    const [a, b, c] = cluster.nodes as [NodeProcess, NodeProcess, NodeProcess];
    const created = await ok(a, 'alice', 'tools/call', {
      name: 'release',
      arguments: { version: '3.0' },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 100 });
    const { taskId } = created;
    const stream = await listen(c, 'alice', [taskId]);
    const ack = await stream.next();
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });

    const waiting = await pollOn(b, 'alice', taskId, (t) => t.status === 'input_required');
    expect(checkTaskMessage('InputRequiredTask', waiting)).toEqual([]);
    expect(waiting.inputRequests.approval).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Release 3.0?' },
    });
    // Another caller hears "not found" on every node.
    for (const node of [a, b, c])
      expect((await send(node, 'mallory', 'tasks/get', { taskId })).error).toMatchObject({
        code: -32602,
        message: 'Failed to retrieve task: Task not found',
      });

    // Answered on c, which does not run the task: the answer travels to a.
    await ok(c, 'alice', 'tasks/update', {
      taskId,
      inputResponses: { approval: { action: 'accept', content: { confirm: true } } },
    });
    const done = await pollOn(b, 'alice', taskId, terminal);
    expect(checkTaskMessage('CompletedTask', done)).toEqual([]);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'released 3.0 on a' }] },
    });
    expect(await ok(c, 'alice', 'tasks/get', { taskId })).toEqual(done);

    // The stream on c heard the changes raised on a, through the store's bus.
    const statuses: string[] = [];
    for (;;) {
      const message = await stream.next();
      expect(message.method).toBe('notifications/tasks');
      expect(checkTaskMessage('TaskStatusNotification', message)).toEqual([]);
      statuses.push(message.params.status);
      if (terminal(message.params)) break;
    }
    stream.close();
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses).toContain('working');
  });

  it('2026-07-28: a cancel on b ends a task running on a at once, and a stops its work', async () => {
    const [a, b, c] = cluster.nodes as [NodeProcess, NodeProcess, NodeProcess];
    const { taskId } = await ok(a, 'alice', 'tools/call', { name: 'hang', arguments: {} });
    expect((await ok(c, 'alice', 'tasks/get', { taskId })).status).toBe('working');
    const before = (stderr.get('a') ?? '').split('task work aborted on a').length;
    await ok(b, 'alice', 'tasks/cancel', { taskId });
    const cancelled = await ok(c, 'alice', 'tasks/get', { taskId });
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(checkTaskMessage('CancelledTask', cancelled)).toEqual([]);
    await until(
      () => (stderr.get('a') ?? '').split('task work aborted on a').length > before,
      'the work on a aborted',
    );
    expect(await ok(a, 'alice', 'tasks/get', { taskId })).toEqual(cancelled);
    // Cancelling a finished task again is acknowledged and changes nothing.
    await ok(c, 'alice', 'tasks/cancel', { taskId });
    expect(await ok(b, 'alice', 'tasks/get', { taskId })).toEqual(cancelled);
  });

  it('2025-11-25, SDK v1 through HAProxy: the question and status notifications of a task running on one node reach the client through the node holding the GET stream; polls, tasks/result, tasks/list and tasks/cancel answer anywhere', async () => {
    const servedBy: { method: string; node: string }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const node = response.headers.get('x-served-by');
      const method = init?.method === 'GET' ? 'GET' : body?.method;
      if (method && node) servedBy.push({ method, node });
      return response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(cluster.balancer.url), {
      fetch: recording,
      requestInit: { headers: { authorization: 'Bearer bob' } },
    });
    const client = new Client(
      { name: 'cluster-tasks', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: any[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });
    const statuses: { taskId: string; status: string }[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      statuses.push({ taskId: n.params.taskId, status: n.params.status });
    });
    await client.connect(transport);
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });

    // The GET stream is held by one node; a task running on another asks through it.
    await until(() => servedBy.some((s) => s.method === 'GET'), 'the standalone GET stream');
    const holder = servedBy.find((s) => s.method === 'GET')?.node;
    /** Runs `release` as a task to its end, polling; the HAProxy name of the node that ran it. */
    const release = async (version: string) => {
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'release', arguments: { version }, task: { ttl: 60_000 } },
        },
        CreateTaskResultSchema,
      );
      const { taskId } = created.task;
      let task = created.task;
      while (task.status !== 'completed') {
        expect(['working', 'input_required']).toContain(task.status);
        await new Promise((r) => setTimeout(r, task.pollInterval ?? 100));
        task = await client.request(
          { method: 'tasks/get', params: { taskId } },
          GetTaskResultSchema,
        );
      }
      // Read again three times: round-robin, so from the other nodes too.
      for (let i = 0; i < 3; i++)
        expect(
          await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema),
        ).toMatchObject({ taskId, status: 'completed' });
      const result = await client.request(
        { method: 'tasks/result', params: { taskId } },
        CallToolResultSchema,
      );
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(new RegExp(`^released ${version.replace('.', '\\.')} on [abc]$`));
      expect(asked.at(-1)).toMatchObject({
        message: `Release ${version}?`,
        _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
      });
      // HAProxy names its servers n1, n2, n3 for a, b, c.
      return { taskId, runner: `n${'abc'.indexOf(text.slice(-1)) + 1}` };
    };
    const runs = [await release('4.0')];
    while (runs.length < 4 && runs.at(-1)?.runner === holder)
      runs.push(await release(`4.${runs.length}`));
    const [first] = runs as [{ taskId: string; runner: string }];
    const crossed = runs.at(-1) as { taskId: string; runner: string };
    expect(crossed.runner, 'a task ran on a node that does not hold the GET stream').not.toBe(
      holder,
    );
    // Its notifications/tasks/status came through the node holding the GET stream.
    await until(
      () => statuses.some((s) => s.taskId === crossed.taskId && s.status === 'completed'),
      'notifications/tasks/status completed',
    );
    expect(statuses.filter((s) => s.taskId === crossed.taskId).map((s) => s.status)).toEqual([
      'input_required',
      'working',
      'completed',
    ]);
    const polls = servedBy.filter((s) => s.method === 'tasks/get').map((s) => s.node);
    expect(new Set(polls).size).toBeGreaterThanOrEqual(2);
    expect(polls.some((n) => n !== first.runner)).toBe(true);
    const taskId = first.taskId;

    // tasks/list on the nodes in turn; tasks/cancel wherever it lands.
    const listed = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { tasks } = await client.request(
        { method: 'tasks/list', params: {} },
        ListTasksResultSchema,
      );
      expect(tasks.map((t) => t.taskId)).toContain(taskId);
      listed.add(servedBy.at(-1)?.node ?? '');
    }
    expect(listed.size).toBeGreaterThanOrEqual(2);
    const hang = await client.request(
      { method: 'tools/call', params: { name: 'hang', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await client.request(
      { method: 'tasks/cancel', params: { taskId: hang.task.taskId } },
      CancelTaskResultSchema,
    );
    expect(cancelled.status).toBe('cancelled');
    await client.close();
  });

  it('a node killed mid-task: its task reads failed on the survivors, never working forever', async () => {
    const [a, b, c] = cluster.nodes as [NodeProcess, NodeProcess, NodeProcess];
    const { taskId } = await ok(c, 'alice', 'tools/call', { name: 'hang', arguments: {} });
    expect((await ok(a, 'alice', 'tasks/get', { taskId })).status).toBe('working');
    await c.kill('SIGKILL');
    const failed = await pollOn(a, 'alice', taskId, terminal, 20_000);
    expect(checkTaskMessage('FailedTask', failed)).toEqual([]);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('server instance') },
    });
    expect(await ok(b, 'alice', 'tasks/get', { taskId })).toEqual(failed);
  }, 30_000);
});
