import { createServer, Tool, type Context } from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { requestEnvelope } from '@mcp-fw/core/transport';
import { createProxy, type ProxyTask } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { quiet } from './support/upstream.ts';

// Tasks through the proxy: a task-augmented call becomes a task on the upstream (our own server,
// with task tools) and on the proxy, whose tasks/get, tasks/result, tasks/cancel and tasks/list
// answer from the upstream's task as the proxy follows it. Every pairing of the two eras that
// have tasks: 2025-11-25 (core tasks) and 2026-07-28 (the tasks extension).

const TASKS = 'io.modelcontextprotocol/tasks';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Upstream {
  aborted: number;
  release?: () => void;
}

/** The upstream's jobs; `tasks: false` declares none of them a task tool (a server without tasks). */
function upstreamServer(seen: Upstream, { tasks = true }: { tasks?: boolean } = {}) {
  const task = tasks ? ({ mode: 'optional', pollIntervalMs: 20 } as const) : undefined;
  class Jobs {
    @Tool({ description: 'Works until released or cancelled', input: z.object({}), task })
    async wait(_: object, ctx: Context) {
      const asTask = await ctx.runAsTask();
      ctx.progress(1, 2, 'half way');
      const cancelled = await new Promise<boolean>((resolve) => {
        seen.release = () => resolve(false);
        ctx.signal.addEventListener('abort', () => resolve(true), { once: true });
      });
      if (cancelled) seen.aborted++;
      return `ran as an upstream task: ${asTask}`;
    }

    @Tool({ description: 'Asks two questions at once', input: z.object({}), task })
    async pair(_: object, ctx: Context) {
      const ask = z.object({ name: z.string() });
      const [a, b] = await Promise.all([ctx.elicit('First?', ask), ctx.elicit('Second?', ask)]);
      return `${a.action} ${b.action}`;
    }

    @Tool({ description: 'Asks for a name inside its task', input: z.object({}), task })
    async greet(_: object, ctx: Context) {
      const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }));
      return answer.action === 'accept' ? `Hello ${answer.content.name}` : answer.action;
    }
  }
  return createServer({ name: 'jobs', version: '1.0.0', providers: [Jobs], logger: quiet });
}

async function through(
  upstream: string,
  downstream: string,
  {
    upstreamTasks = true,
    tasks,
  }: { upstreamTasks?: boolean; tasks?: Record<string, ProxyTask> } = {},
) {
  const seen: Upstream = { aborted: 0 };
  const proxy = await createProxy(upstreamServer(seen, { tasks: upstreamTasks }), {
    connect: { protocolVersion: upstream },
    server: { logger: quiet },
    onWarning: () => {},
    tasks,
  });
  closers.push(() => proxy.close());
  const capabilities = { elicitation: {} };
  const client = await connectTestClient(proxy, {
    protocolVersion: downstream,
    capabilities,
    handlers: { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }) },
  });
  closers.push(() => client.close());
  const modern = downstream === '2026-07-28';
  const _meta = modern
    ? requestEnvelope(
        downstream,
        { ...capabilities, extensions: { [TASKS]: {} } },
        {
          name: 'test',
          version: '1',
        },
      )
    : undefined;
  /** A task method as the downstream era sends it. */
  const task = (method: string, params: Record<string, unknown>) =>
    client.request(method, _meta ? { ...params, _meta } : params);
  /** Starts `wait` as a task; its id. */
  const start = async (): Promise<string> => {
    const created = await client.request(
      'tools/call',
      modern ? { name: 'wait', arguments: {}, _meta } : { name: 'wait', arguments: {}, task: {} },
    );
    const id = modern ? created.taskId : (created.task as { taskId?: unknown })?.taskId;
    expect(typeof id).toBe('string');
    return id as string;
  };
  return { seen, client, task, start, modern, _meta };
}

/** tasks/get until `done` holds of the task. */
async function until(
  get: () => Promise<Record<string, unknown>>,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  await vi.waitFor(
    async () => {
      last = await get();
      expect(done(last)).toBe(true);
    },
    { timeout: 5000, interval: 20 },
  );
  return last;
}

describe.each([
  ['2025-11-25', '2025-11-25'],
  ['2026-07-28', '2026-07-28'],
  ['2026-07-28', '2025-11-25'],
  ['2025-11-25', '2026-07-28'],
])('a %s client through the proxy to a %s server', (downstream, upstream) => {
  it('a task-augmented call runs as a task upstream; tasks/get shows its status message and tasks/result (or the finished task) its result', async () => {
    const { seen, task, start, modern } = await through(upstream, downstream);
    const taskId = await start();
    const working = await until(
      () => task('tasks/get', { taskId }),
      (t) => t.statusMessage === 'half way',
    );
    expect(working.status).toBe('working');
    seen.release?.();
    const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0].text;
    if (modern) {
      const done = await until(
        () => task('tasks/get', { taskId }),
        (t) => t.status === 'completed',
      );
      expect(text(done.result)).toBe('ran as an upstream task: true');
    } else {
      expect(text(await task('tasks/result', { taskId }))).toBe('ran as an upstream task: true');
    }
  });

  it('tasks/cancel through the proxy cancels the upstream task', async () => {
    const { seen, task, start } = await through(upstream, downstream);
    const taskId = await start();
    await until(
      () => task('tasks/get', { taskId }),
      (t) => t.statusMessage === 'half way',
    );
    await task('tasks/cancel', { taskId });
    await vi.waitFor(() => expect(seen.aborted).toBe(1), { timeout: 5000 });
    expect((await task('tasks/get', { taskId })).status).toBe('cancelled');
  });

  it('a question the upstream task asks reaches the caller through its task', async () => {
    const { client } = await through(upstream, downstream);
    const ended = await (client as TestClient).callToolAsTask('greet', {});
    expect(ended.status).toBe('completed');
    expect(ended.taskId).toEqual(expect.any(String));
    expect(ended.result?.content[0].text).toBe('Hello Ada');
  });

  it('tasks/list lists the caller’s task (2025-11-25; the 2026-07-28 extension has no tasks/list)', async () => {
    const { seen, task, start, modern } = await through(upstream, downstream);
    const taskId = await start();
    if (modern) await expect(task('tasks/list', {})).rejects.toMatchObject({ code: -32601 });
    else {
      const listed = (await task('tasks/list', {})) as { tasks: { taskId: string }[] };
      expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    }
    seen.release?.();
  });
});

// An upstream without tasks (a 2025-06-18 server; a 2025-11-25 one whose tools are no task tools):
// the proxy runs the upstream call as a task of its own, for the tools `tasks` names.
describe.each([
  ['2025-11-25', '2025-06-18'],
  ['2026-07-28', '2025-06-18'],
  ['2025-11-25', '2025-11-25'],
  ['2026-07-28', '2025-11-25'],
])('a %s client through the proxy to a %s server without tasks', (downstream, upstream) => {
  const emulated = {
    upstreamTasks: false,
    tasks: { wait: 'optional', greet: 'optional' },
  } as const;

  it('the proxy runs the upstream call as its own task: tasks/get shows it working, then its result', async () => {
    const { seen, task, start, modern } = await through(upstream, downstream, emulated);
    const taskId = await start();
    // The upstream runs a plain call (no task of its own), and reports progress meanwhile.
    await vi.waitFor(() => expect(seen.release).toBeTypeOf('function'), { timeout: 5000 });
    expect((await task('tasks/get', { taskId })).status).toBe('working');
    seen.release?.();
    const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0].text;
    if (modern) {
      const done = await until(
        () => task('tasks/get', { taskId }),
        (t) => t.status === 'completed',
      );
      expect(text(done.result)).toBe('ran as an upstream task: false');
    } else {
      expect(text(await task('tasks/result', { taskId }))).toBe('ran as an upstream task: false');
    }
  });

  it('tasks/cancel of the proxy’s task cancels the upstream call (notifications/cancelled)', async () => {
    const { seen, task, start } = await through(upstream, downstream, emulated);
    const taskId = await start();
    await vi.waitFor(() => expect(seen.release).toBeTypeOf('function'), { timeout: 5000 });
    await task('tasks/cancel', { taskId });
    await vi.waitFor(() => expect(seen.aborted).toBe(1), { timeout: 5000 });
    expect((await task('tasks/get', { taskId })).status).toBe('cancelled');
  });

  it('a question the upstream asks during the proxy’s task reaches the caller through the task', async () => {
    const { client } = await through(upstream, downstream, emulated);
    const ended = await (client as TestClient).callToolAsTask('greet', {});
    expect(ended.status).toBe('completed');
    expect(ended.taskId).toEqual(expect.any(String));
    expect(ended.result?.content[0].text).toBe('Hello Ada');
  });

  it('tasks/list lists the proxy’s task (2025-11-25; the 2026-07-28 extension has no tasks/list)', async () => {
    const { seen, task, start, modern } = await through(upstream, downstream, emulated);
    const taskId = await start();
    if (modern) await expect(task('tasks/list', {})).rejects.toMatchObject({ code: -32601 });
    else {
      const listed = (await task('tasks/list', {})) as { tasks: { taskId: string }[] };
      expect(listed.tasks.map((t) => t.taskId)).toEqual([taskId]);
    }
    await vi.waitFor(() => expect(seen.release).toBeTypeOf('function'), { timeout: 5000 });
    seen.release?.();
  });

  it('a tool not named in tasks stays a plain call, and a required one refuses a call that is not a task', async () => {
    const { client, modern } = await through(upstream, downstream, {
      upstreamTasks: false,
      tasks: { wait: 'required' },
    });
    const tools = (await client.listTools()).tools as { name: string; execution?: unknown }[];
    if (!modern) {
      expect(tools.find((t) => t.name === 'greet')?.execution).toBeUndefined();
      expect(tools.find((t) => t.name === 'wait')?.execution).toEqual({ taskSupport: 'required' });
    }
    expect((await client.callTool('greet', {})).content[0].text).toBe('Hello Ada');
    // Plain (no extension, no params.task): -32021 under 2026-07-28, -32601 under 2025-11-25.
    await expect(
      client.request('tools/call', { name: 'wait', arguments: {} }),
    ).rejects.toMatchObject({
      code: modern ? -32021 : -32601,
    });
  });
});

describe('a deferred tool through the proxy (2026-07-28 caller)', () => {
  /** Round 1 and 2 of `greet` by hand: the first answers with a question, the second with a task. */
  async function rounds(upstream: string, upstreamTasks: boolean) {
    const { client, task, _meta } = await through(upstream, '2026-07-28', {
      upstreamTasks,
      tasks: { greet: { mode: 'required', deferred: true } },
    });
    const call = { name: 'greet', arguments: {}, _meta };
    const first = await client.rawRequest('tools/call', call);
    expect(first.resultType).toBe('input_required');
    expect(first).not.toHaveProperty('taskId');
    const [key] = Object.keys(first.inputRequests as object);
    const second = await client.rawRequest('tools/call', {
      ...call,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first.requestState,
    });
    expect(second.resultType).toBe('task');
    expect(second).not.toHaveProperty('requestState');
    const done = await until(
      () => task('tasks/get', { taskId: second.taskId }),
      (t) => t.status === 'completed',
    );
    expect((done.result as { content: { text?: string }[] }).content[0].text).toBe('Hello Alice');
  }

  it('an upstream without tasks: the question is an input round of the request, then the call becomes the proxy’s task', async () => {
    await rounds('2025-06-18', false);
  });

  it('a 2025-11-25 upstream task tool declared deferred asks first, then becomes a task (tasks-mrtr-composition)', async () => {
    await rounds('2025-11-25', true);
  });
});

describe('a 2026-07-28 client through the proxy to a 2026-07-28 server with tasks', () => {
  it('two questions the upstream task asks together show on the proxy’s task together (tasks-mrtr-partial-fulfillment)', async () => {
    const { client, task, _meta } = await through('2026-07-28', '2026-07-28');
    const created = await client.rawRequest('tools/call', { name: 'pair', arguments: {}, _meta });
    const taskId = created.taskId as string;
    expect(created.resultType).toBe('task');
    const asking = await until(
      () => task('tasks/get', { taskId }),
      (t) => Object.keys((t.inputRequests as object | undefined) ?? {}).length >= 2,
    );
    expect(asking.status).toBe('input_required');
    const [first, second] = Object.keys(asking.inputRequests as object);
    const answer = { action: 'accept', content: { name: 'Ada' } };
    await task('tasks/update', { taskId, inputResponses: { [first]: answer } });
    const partial = await task('tasks/get', { taskId });
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual([second]);
    await task('tasks/update', { taskId, inputResponses: { [second]: answer } });
    const done = await until(
      () => task('tasks/get', { taskId }),
      (t) => t.status === 'completed',
    );
    expect((done.result as { content: { text?: string }[] }).content[0].text).toBe('accept accept');
  });
});

describe('the tasks setting', () => {
  it('a tasks entry naming no tool of the upstream is a warning naming it and the tools there are', async () => {
    const warnings: string[] = [];
    const proxy = await createProxy(upstreamServer({ aborted: 0 }, { tasks: false }), {
      connect: { protocolVersion: '2025-06-18' },
      server: { logger: quiet },
      onWarning: (message) => warnings.push(message),
      tasks: { wiat: 'optional' },
    });
    closers.push(() => proxy.close());
    expect(warnings).toEqual([
      'upstream "upstream" has no tool "wiat" (named in its tasks setting); its tools: wait, pair, greet',
    ]);
  });

  it('a malformed tasks entry fails at startup naming the tool and the fix', async () => {
    await expect(
      createProxy(upstreamServer({ aborted: 0 }), {
        server: { logger: quiet },
        onWarning: () => {},
        tasks: { wait: { mode: 'sometimes' } as never },
      }),
    ).rejects.toThrow(/the task of the tool "wait" must be .*Fix: write "wait": "optional"/);
  });
});
