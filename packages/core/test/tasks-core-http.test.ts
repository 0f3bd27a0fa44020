import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, Tool, UserError, type Context } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { mcpSchema } from './support/mcp-schema.ts';
import { connectRecording } from './support/official-client.ts';

// Issue #22: the experimental tasks of 2025-11-25 core, driven by the official client 2.x over
// HTTP (a legacy session): `params.task` → CreateTaskResult, tasks/get, tasks/result (waits,
// answers what the call would have), tasks/list (the session's own), tasks/cancel, and a
// question asked halfway relayed on the session, tagged with its task. Every message the
// server sends is validated against the official 2025-11-25 schema.

const REVISION = '2025-11-25';
const RELATED = 'io.modelcontextprotocol/related-task';
const schema = mcpSchema(REVISION);

class Jobs {
  @Tool({
    description: 'Ships a release after asking for approval',
    input: z.object({ version: z.string() }),
    task: { mode: 'optional', pollIntervalMs: 50 },
  })
  async ship({ version }: { version: string }, ctx: Context) {
    const ok = await ctx.elicit(`Ship ${version}?`, z.object({ confirm: z.boolean() }));
    return ok.action === 'accept' && ok.content.confirm ? `shipped ${version}` : 'not shipped';
  }

  @Tool({ description: 'Waits until cancelled', input: z.object({}), task: 'required' })
  async hang(_args: object, ctx: Context) {
    await new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
    );
    return 'never';
  }

  @Tool({ description: 'Fails as a tool', task: 'optional' })
  broken(): string {
    throw new UserError('the job failed');
  }

  @Tool({ description: 'Never a task' })
  plain() {
    return 'plain';
  }
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A 2025-11-25 session of the official client; every server message is recorded. */
async function session(url: string, asked: unknown[]) {
  const client = new Client(
    { name: 'tasks-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, supportedProtocolVersions: [REVISION] },
  );
  client.setRequestHandler('elicitation/create', async (request: any) => {
    asked.push(request.params);
    return { action: 'accept', content: { confirm: true } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const seen = await connectRecording(client, transport);
  cleanups.push(() => client.close());
  const request = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params } as never, z.any()) as Promise<any>;
  const problems = () =>
    seen.flatMap(({ message, method }) =>
      schema.check(message, 'result' in message ? method : undefined),
    );
  return { client, request, problems, seen };
}

async function serve(pageSize?: number): Promise<string> {
  const handle = await serveHttp(
    createServer({ name: 'jobs', version: '1.0.0', providers: [Jobs], pageSize }),
    { port: 0 },
  );
  cleanups.push(() => handle.close());
  return handle.url;
}

describe('2025-11-25 core tasks over HTTP (official client 2.x)', () => {
  it('advertises tasks, runs a task with an elicitation halfway, and serves its result', async () => {
    const asked: any[] = [];
    const { client, request, problems, seen } = await session(await serve(), asked);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'ship')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'plain')?.execution).toBeUndefined();

    const created = await request('tools/call', {
      name: 'ship',
      arguments: { version: '2.0' },
      task: { ttl: 60_000 },
    });
    expect(created.task).toMatchObject({ status: 'working', pollInterval: 50 });
    const taskId = created.task.taskId;
    // tasks/result waits for the end, and answers what tools/call would have.
    const result = await request('tasks/result', { taskId });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'shipped 2.0' }],
      _meta: { [RELATED]: { taskId } },
    });
    // The question went on the session, tagged with its task.
    expect(asked).toMatchObject([{ message: 'Ship 2.0?', _meta: { [RELATED]: { taskId } } }]);
    expect(await request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'completed' });
    const { tasks } = await request('tasks/list', {});
    expect(tasks.map((t: any) => t.taskId)).toEqual([taskId]);
    // Each status change was also pushed on the session (the optional notifications/tasks/status).
    const statuses = seen
      .filter(({ message }) => message.method === 'notifications/tasks/status')
      .map(({ message }) => [message.params.taskId, message.params.status]);
    expect(statuses).toEqual([
      [taskId, 'input_required'],
      [taskId, 'working'],
      [taskId, 'completed'],
    ]);
    expect(problems()).toEqual([]);
  });

  it("refuses what the revision refuses: -32601 for a wrong task mode, -32602 to cancel an ended task or read another session's", async () => {
    const url = await serve();
    const { request, problems } = await session(url, []);
    await expect(request('tools/call', { name: 'hang', arguments: {} })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(
      request('tools/call', { name: 'plain', arguments: {}, task: {} }),
    ).rejects.toMatchObject({ code: -32601 });

    const broken = await request('tools/call', { name: 'broken', arguments: {}, task: {} });
    expect(await request('tasks/result', { taskId: broken.task.taskId })).toMatchObject({
      isError: true,
    });
    await expect(request('tasks/cancel', { taskId: broken.task.taskId })).rejects.toMatchObject({
      code: -32602,
    });

    const hang = await request('tools/call', { name: 'hang', arguments: {}, task: {} });
    const other = await session(url, []);
    await expect(other.request('tasks/get', { taskId: hang.task.taskId })).rejects.toMatchObject({
      code: -32602,
    });
    expect((await other.request('tasks/list', {})).tasks).toEqual([]);
    // Nor does another session hear of this one's tasks.
    expect(other.seen.some(({ message }) => message.method === 'notifications/tasks/status')).toBe(
      false,
    );
    const cancelled = await request('tasks/cancel', { taskId: hang.task.taskId });
    expect(cancelled).toMatchObject({ taskId: hang.task.taskId, status: 'cancelled' });
    await expect(request('tasks/get', { taskId: 'nope' })).rejects.toMatchObject({
      code: -32602,
    });
    expect(problems()).toEqual([]);
  });

  it('lists the session’s tasks a page at a time (pageSize), oldest first; an unknown cursor is -32602', async () => {
    const { request, problems } = await session(await serve(2), []);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await request('tools/call', { name: 'hang', arguments: {}, task: {} })).task.taskId,
      );
    const first = await request('tasks/list', {});
    expect(first.tasks.map((t: any) => t.taskId)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toBeTypeOf('string');
    const second = await request('tasks/list', { cursor: first.nextCursor });
    expect(second.tasks.map((t: any) => t.taskId)).toEqual(ids.slice(2));
    expect(second).not.toHaveProperty('nextCursor');
    for (const cursor of ['nope', first.nextCursor.slice(0, -2), 'dDpub3BlOm5vcGU'])
      await expect(request('tasks/list', { cursor })).rejects.toMatchObject({ code: -32602 });
    for (const taskId of ids) await request('tasks/cancel', { taskId });
    expect(problems()).toEqual([]);
  });
});
