import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../src/jsonrpc/index.ts';
import { Tasks, type TaskSnapshot, type TaskWork } from '../src/protocol/tasks/index.ts';
import { checkTaskMessage } from './support/ext-tasks-schema.ts';

// The era-neutral task machinery: detached work, questions through the task, owners, bounds,
// expiry. Every snapshot is checked against the extension's own DetailedTask schema.

const timing = { ttlMs: 60_000, pollIntervalMs: 500 };
const made: Tasks[] = [];
const tasks = (limits = {}) => {
  const t = new Tasks(limits);
  made.push(t);
  return t;
};
afterEach(() => made.splice(0).forEach((t) => t.close()));

const gate = <T = void>() => {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await check()).toBe(true);
};

const valid = (snapshot: TaskSnapshot) => {
  expect(checkTaskMessage('DetailedTask', snapshot)).toEqual([]);
  return snapshot;
};

const rpcError = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    return { code: (error as JsonRpcError).code, message: (error as JsonRpcError).message };
  }
  throw new Error('expected a JSON-RPC error');
};

describe('Tasks', () => {
  it('starts work detached, readable at once, and keeps its result when it completes', async () => {
    const t = tasks();
    const done = gate();
    const first = await t.start('alice', timing, async () => {
      await done.opened;
      return { result: { content: [{ type: 'text', text: 'done' }] } };
    });
    valid(first);
    expect(first).toMatchObject({ status: 'working', ttlMs: 60_000, pollIntervalMs: 500 });
    expect(first.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Date.parse(first.createdAt)).not.toBeNaN();
    expect(valid(await t.get('alice', first.taskId)).status).toBe('working');
    done.open();
    const final = valid(await t.settled('alice', first.taskId));
    expect(final).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    expect(final).not.toHaveProperty('error');
  });

  it('fails with the JSON-RPC error the request would have had, and no result', async () => {
    const t = tasks();
    const { taskId } = await t.start('alice', timing, async () => ({
      error: { code: -32603, message: 'the upstream API refused' },
    }));
    const final = valid(await t.settled('alice', taskId));
    expect(final).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the upstream API refused' },
      statusMessage: 'the upstream API refused',
    });
    expect(final).not.toHaveProperty('result');
  });

  it('stops at a question (input_required), ignores answers to keys not waiting, resumes on the answer', async () => {
    const t = tasks();
    const question = {
      mode: 'form',
      message: 'Approve?',
      requestedSchema: { type: 'object', properties: {} },
    };
    const { taskId } = await t.start('alice', timing, async (task: TaskWork) => {
      const answer = (await task.ask('elicitation/create', question)) as { action: string };
      return { result: { content: [{ type: 'text', text: answer.action }] } };
    });
    await until(async () => (await t.get('alice', taskId)).status === 'input_required');
    const waiting = valid(await t.get('alice', taskId));
    expect(waiting.inputRequests).toEqual({
      input_1: { method: 'elicitation/create', params: question },
    });
    expect(checkTaskMessage('InputRequiredTask', waiting)).toEqual([]);

    await t.update('alice', taskId, { never_asked: { action: 'accept' } });
    expect((await t.get('alice', taskId)).status).toBe('input_required');
    await t.update('alice', taskId, { input_1: { action: 'accept', content: {} } });
    const final = valid(await t.settled('alice', taskId));
    expect(final).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'accept' }] },
    });
    expect(final).not.toHaveProperty('inputRequests');
  });

  it('cancels at once, aborts the work and withdraws its questions; cancelling again changes nothing', async () => {
    const t = tasks();
    let signal: AbortSignal | undefined;
    let asked: Promise<unknown> | undefined;
    const { taskId } = await t.start('alice', timing, async (task) => {
      signal = task.signal;
      asked = task.ask('elicitation/create', { message: 'Go on?' });
      await asked.catch(() => undefined);
      return { result: { content: [], late: true } };
    });
    await until(async () => (await t.get('alice', taskId)).status === 'input_required');
    const cancelled = valid(await t.cancel('alice', taskId));
    expect(cancelled.status).toBe('cancelled');
    expect(signal?.aborted).toBe(true);
    await expect(asked).rejects.toThrow('the task is cancelled');
    await new Promise((r) => setTimeout(r, 10));
    expect(await t.get('alice', taskId)).toEqual(cancelled);
    expect(await t.cancel('alice', taskId)).toEqual(cancelled);

    const finished = await t.start('alice', timing, async () => ({ result: { content: [] } }));
    const completed = await t.settled('alice', finished.taskId);
    expect(await t.cancel('alice', finished.taskId)).toEqual(completed);
  });

  it('answers -32602 for an unknown id, a malformed id, and another caller’s task alike', async () => {
    const t = tasks();
    const { taskId } = await t.start('alice', timing, () => new Promise(() => {}));
    expect(await rpcError(() => t.get('alice', 'no-such-task'))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    expect(await rpcError(() => t.get('mallory', taskId))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    expect(await rpcError(() => t.update('mallory', taskId, {}))).toEqual({
      code: -32602,
      message: 'Failed to update task: Task not found',
    });
    expect(await rpcError(() => t.cancel('mallory', taskId))).toEqual({
      code: -32602,
      message: 'Failed to cancel task: Task not found',
    });
    expect((await rpcError(() => t.get('alice', 42))).code).toBe(-32602);
    expect((await t.list('mallory')).tasks).toEqual([]);
    expect((await t.list('alice')).tasks.map((s) => s.taskId)).toEqual([taskId]);
    expect((await t.get('alice', taskId)).status).toBe('working');
  });

  it('expires a task at the end of its time-to-live: its work aborts and a late poll hears so', async () => {
    const t = tasks();
    let signal: AbortSignal | undefined;
    const { taskId } = await t.start('alice', { ttlMs: 30, pollIntervalMs: 10 }, (task) => {
      signal = task.signal;
      return new Promise(() => {});
    });
    await until(() => t.size === 0);
    expect(signal?.aborted).toBe(true);
    expect(await rpcError(() => t.get('alice', taskId))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task has expired',
    });
  });

  it('a task whose result would pass limits.tasks.maxTaskBytes fails naming it, and keeps nothing of the result', async () => {
    const t = tasks({ maxTaskBytes: 4096 });
    const small = await t.start('alice', timing, async () => ({ result: { text: 'ok' } }));
    expect((await t.settled('alice', small.taskId)).status).toBe('completed');
    const big = await t.start('alice', timing, async () => ({
      result: { text: '€'.repeat(2000) },
    }));
    const final = await t.settled('alice', big.taskId);
    expect(final).toMatchObject({
      status: 'failed',
      error: { code: -32000, data: { limit: 'tasks.maxTaskBytes' } },
    });
    expect(final.error?.message).toContain('limits.tasks.maxTaskBytes (4096 bytes)');
    expect(JSON.stringify(final).length).toBeLessThan(1000);
  });

  it('bounds tasks per caller, per server, questions per task, and the time-to-live', async () => {
    const t = tasks({
      maxTasksPerOwner: 2,
      maxTasks: 3,
      maxInputRequestsPerTask: 1,
      maxTtlMs: 1000,
    });
    const forever = () => new Promise<never>(() => {});
    expect((await t.start('alice', { ttlMs: 10 ** 9, pollIntervalMs: 1 }, forever)).ttlMs).toBe(
      1000,
    );
    await t.start('alice', timing, forever);
    await expect(t.start('alice', timing, forever)).rejects.toThrow(JsonRpcError);
    await expect(t.start('alice', timing, forever)).rejects.toThrow(
      'limits.tasks.maxTasksPerOwner',
    );
    await t.start('bob', timing, forever);
    await expect(t.start('carol', timing, forever)).rejects.toThrow('limits.tasks.maxTasks');

    const u = tasks({ maxInputRequestsPerTask: 1 });
    let second: Promise<unknown> | undefined;
    await u.start('alice', timing, async (task) => {
      task.ask('roots/list', {}).catch(() => undefined);
      second = task.ask('roots/list', {});
      second.catch(() => undefined);
      return forever();
    });
    await until(() => second !== undefined);
    await expect(second).rejects.toThrow('limits.tasks.maxInputRequestsPerTask');
  });

  it('refuses a question key used before in the same task', async () => {
    const t = tasks();
    let reused: Promise<unknown> | undefined;
    const { taskId } = await t.start('alice', timing, async (task) => {
      const first = task.ask('roots/list', {}, 'roots');
      await first;
      reused = task.ask('roots/list', {}, 'roots');
      reused.catch(() => undefined);
      return { result: { content: [] } };
    });
    await until(async () => (await t.get('alice', taskId)).status === 'input_required');
    await t.update('alice', taskId, { roots: { roots: [] } });
    await t.settled('alice', taskId);
    await expect(reused).rejects.toThrow('keys are used once per task');
  });

  it('tells listeners every status change with the owner', async () => {
    const t = tasks();
    const seen: string[] = [];
    t.listen((owner, snapshot) => seen.push(`${owner}:${snapshot.status}`));
    const { taskId } = await t.start('alice', timing, async (task) => {
      await task.ask('roots/list', {});
      return { result: { content: [] } };
    });
    await until(async () => (await t.get('alice', taskId)).status === 'input_required');
    await t.update('alice', taskId, { input_1: { roots: [] } });
    await t.settled('alice', taskId);
    expect(seen).toEqual(['alice:input_required', 'alice:working', 'alice:completed']);
  });
});

describe('Tasks with questions relayed on the session (2025-11-25)', () => {
  it('shows input_required while the relayed question waits, working again after, the answer to the work', async () => {
    const t = tasks();
    const answered = gate<unknown>();
    const relayed: { method: string; taskId: string }[] = [];
    const { taskId } = await t.start(
      'alice',
      timing,
      async (task) => {
        const answer = (await task.ask('roots/list', {})) as { roots: unknown[] };
        return { result: { content: [{ type: 'text', text: `${answer.roots.length} roots` }] } };
      },
      (method, _params, id) => {
        relayed.push({ method, taskId: id });
        return answered.opened;
      },
    );
    await until(async () => (await t.get('alice', taskId)).status === 'input_required');
    expect(relayed).toEqual([{ method: 'roots/list', taskId }]);
    answered.open({ roots: [{ uri: 'file:///a' }] });
    const final = await t.settled('alice', taskId);
    expect(final).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: '1 roots' }] },
    });
  });
});
