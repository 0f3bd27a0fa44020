import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../src/jsonrpc/index.ts';
import {
  MemoryTaskRecords,
  Tasks,
  type TaskSnapshot,
  type TaskWork,
} from '../src/protocol/tasks/index.ts';
import type { MessageBus } from '../src/stores/index.ts';
import { checkTaskMessage } from './support/ext-tasks-schema.ts';

// Tasks as several instances of one server run them: one set of records every instance reads,
// the work on the instance that started it, answers and cancels carried to it on the bus, and a
// task whose instance stopped reported failed. The records and the bus are the in-process ones
// (the Redis ones are driven by packages/redis/test/cluster-tasks.test.ts); every snapshot an
// instance answers with is checked against the extension's DetailedTask schema.

const timing = { ttlMs: 60_000, pollIntervalMs: 1 };
const made: Tasks[] = [];
afterEach(() => made.splice(0).forEach((t) => t.close()));

/** Pub/sub between the instances of one process, as the shared store's bus behaves. */
function memoryBus(lost: (topic: string) => boolean = () => false): MessageBus {
  const topics = new Map<string, Set<(message: string) => void>>();
  return {
    publish(topic, message) {
      if (lost(topic)) return;
      for (const listener of topics.get(topic) ?? []) queueMicrotask(() => listener(message));
    },
    async subscribe(topic, listener) {
      const set = topics.get(topic) ?? new Set();
      topics.set(topic, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/** Instances `a` and `b` sharing records and a bus, on a clock the test moves. */
async function cluster(limits = {}, lost?: (topic: string) => boolean) {
  const clock = { now: Date.now() };
  const now = () => clock.now;
  const records = new MemoryTaskRecords(now);
  const bus = memoryBus(lost);
  const a = new Tasks(limits, now);
  const b = new Tasks(limits, now);
  made.push(a, b);
  await a.share(records, bus, 'node-a');
  await b.share(records, bus, 'node-b');
  return { a, b, clock };
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await check()).toBe(true);
};

const valid = (snapshot: TaskSnapshot) => {
  expect(checkTaskMessage('DetailedTask', snapshot)).toEqual([]);
  return snapshot;
};

const question = {
  mode: 'form',
  message: 'Ship it?',
  requestedSchema: { type: 'object', properties: {} },
};

const rpcError = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcError);
  return { code: (error as JsonRpcError).code, message: (error as JsonRpcError).message };
};

describe('Tasks shared by several instances', () => {
  it('another instance reads the task, answers its question and waits for its result', async () => {
    const { a, b } = await cluster();
    const ran: string[] = [];
    const first = await a.start('alice', timing, async (task: TaskWork) => {
      const answer = (await task.ask('elicitation/create', question, 'approval')) as {
        action: string;
      };
      ran.push('a');
      return { result: { content: [{ type: 'text', text: answer.action }] } };
    });
    expect(valid(await b.get('alice', first.taskId))).toMatchObject({ status: 'working' });
    await until(async () => (await b.get('alice', first.taskId)).status === 'input_required');
    const waiting = valid(await b.get('alice', first.taskId));
    expect(waiting.inputRequests).toEqual({
      approval: { method: 'elicitation/create', params: question },
    });
    await b.update('alice', first.taskId, { approval: { action: 'accept', content: {} } });
    const final = valid(await b.settled('alice', first.taskId));
    expect(final).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'accept' }] },
    });
    expect(ran).toEqual(['a']);
    expect(b.size).toBe(0);
    expect(await a.get('alice', first.taskId)).toEqual(final);
  });

  it('a cancel on another instance ends the task at once and aborts the work where it runs', async () => {
    const { a, b } = await cluster();
    let signal: AbortSignal | undefined;
    const { taskId } = await a.start('alice', timing, (task) => {
      signal = task.signal;
      return new Promise(() => {});
    });
    const cancelled = valid(await b.cancel('alice', taskId));
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    await until(async () => signal?.aborted === true);
    expect(await a.get('alice', taskId)).toEqual(cancelled);
    expect(await b.settled('alice', taskId)).toEqual(cancelled);
    // Cancelling again, from either instance, changes nothing.
    expect(await a.cancel('alice', taskId)).toEqual(cancelled);
    expect(await b.cancel('alice', taskId)).toEqual(cancelled);
  });

  it('a cancel whose message to the running instance is lost still ends the task there at its next read', async () => {
    const { a, b } = await cluster({}, (topic) => topic === 'task:node-a');
    let signal: AbortSignal | undefined;
    const { taskId } = await a.start('alice', timing, (task) => {
      signal = task.signal;
      return new Promise(() => {});
    });
    const cancelled = await b.cancel('alice', taskId);
    expect(signal?.aborted).toBe(false);
    expect(await a.get('alice', taskId)).toEqual(cancelled);
    expect(signal?.aborted).toBe(true);
  });

  it('a cancel of a task that already ended on its instance answers that end', async () => {
    const { a, b } = await cluster();
    const { taskId } = await a.start('alice', timing, async () => ({ result: { content: [] } }));
    await until(async () => (await b.get('alice', taskId)).status === 'completed');
    expect(await b.cancel('alice', taskId)).toMatchObject({ status: 'completed' });
  });

  it('a task whose instance stopped beating reads failed on the others, never working forever', async () => {
    const { a, b, clock } = await cluster();
    const { taskId } = await a.start('alice', timing, () => new Promise(() => {}));
    // Instance a goes away without a word: its tasks stay recorded as working.
    made.splice(made.indexOf(a), 1);
    a.close();
    expect((await b.get('alice', taskId)).status).toBe('working');
    clock.now += 60_000 - 1;
    const failed = valid(await b.get('alice', taskId));
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('server instance') },
    });
    expect(await b.settled('alice', taskId)).toEqual(failed);
  });

  it('keeps owners apart and the caps across instances', async () => {
    const { a, b } = await cluster({ maxTasksPerOwner: 1, maxTasks: 2 });
    const forever = () => new Promise<never>(() => {});
    const { taskId } = await a.start('alice', timing, forever);
    await expect(b.start('alice', timing, forever)).rejects.toThrow(JsonRpcError);
    await b.start('bob', timing, forever);
    await expect(b.start('carol', timing, forever)).rejects.toThrow('limits.tasks.maxTasks');
    for (const pending of [
      b.get('mallory', taskId),
      b.update('mallory', taskId, {}),
      b.cancel('mallory', taskId),
    ])
      expect((await rpcError(pending)).message).toMatch(/Task not found$/);
    expect((await b.list('mallory')).tasks).toEqual([]);
  });

  it('lists an owner’s tasks a page at a time, whichever instance runs them', async () => {
    const { a, b } = await cluster();
    const ids: string[] = [];
    for (const at of [a, b, a])
      ids.push((await at.start('alice', timing, () => new Promise(() => {}))).taskId);
    await b.start('bob', timing, () => new Promise(() => {}));
    const first = await b.list('alice', undefined, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(ids.slice(0, 2));
    expect(first.next).toBeTypeOf('string');
    const second = await a.list('alice', first.next, 2);
    expect(second.tasks.map((t) => t.taskId)).toEqual(ids.slice(2));
    expect(second.next).toBeUndefined();
    await expect(a.list('alice', 'not-a-cursor', 2)).rejects.toThrow(RangeError);
  });

  it('tasks/result stops waiting when its request is cancelled, here and on another instance', async () => {
    const { a, b } = await cluster();
    const { taskId } = await a.start('alice', timing, () => new Promise(() => {}));
    for (const at of [a, b]) {
      const request = new AbortController();
      const waiting = at.settled('alice', taskId, request.signal);
      request.abort(new Error('the client cancelled tasks/result'));
      await expect(waiting).rejects.toThrow('the client cancelled tasks/result');
    }
    expect((await b.get('alice', taskId)).status).toBe('working');
  });

  it('an expired task reads expired on every instance', async () => {
    const { a, b, clock } = await cluster();
    const { taskId } = await a.start(
      'alice',
      { ttlMs: 1000, pollIntervalMs: 1 },
      () => new Promise(() => {}),
    );
    clock.now += 1000;
    for (const at of [a, b])
      expect(await rpcError(at.get('alice', taskId))).toEqual({
        code: -32602,
        message: 'Failed to retrieve task: Task has expired',
      });
  });
});
