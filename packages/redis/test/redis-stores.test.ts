import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStore } from '@mcp-fw/core/http';
import { type RedisEventStore, redisStore } from '@mcp-fw/redis';
import { freePort, REDIS_SERVER, RedisProcess } from './support/processes.ts';

// Each store against a real redis-server of its own: what it keeps, its bounds, and that two
// instances (two stores on one Redis) see the same state.
describe.skipIf(REDIS_SERVER === undefined)('@mcp-fw/redis stores', () => {
  let redis: RedisProcess;
  let one: SharedStore;
  let two: SharedStore;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    one = await redisStore({ url: redis.url, events: { maxEventsPerStream: 100 } });
    two = await redisStore({ url: redis.url, events: { maxEventsPerStream: 100 } });
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.stop();
  });

  it('event logs: ids minted without waiting, resumed from another instance, bounded, dropped', async () => {
    const ids = ['a', 'b', 'c'].map((x) => one.events.append('s1_x.0', `{"n":"${x}"}`, 's1'));
    expect(new Set(ids).size).toBe(3);
    // Written behind: the other instance reads them once they landed.
    const written = () => (one.events as RedisEventStore).written();
    await written();
    const after = await two.events.after(ids[0]);
    expect(after).toEqual({
      streamId: 's1_x.0',
      frames: [
        { id: ids[1], frame: '{"n":"b"}' },
        { id: ids[2], frame: '{"n":"c"}' },
      ],
    });
    // A priming id (not stored) means the whole stream.
    expect((await two.events.after('s1_x.0:p'))?.frames.length).toBe(3);
    expect(await two.events.after('unknown_stream:1')).toBeUndefined();
    expect(Number(redis.cli('PTTL', 'mcp:events:s1_x.0'))).toBeGreaterThan(0);

    for (let i = 0; i < 1_000; i++) one.events.append('s2_x.0', `{"i":${i}}`, 's2');
    const last = one.events.append('s2_x.0', '{"i":"last"}', 's2');
    await written();
    const kept = await two.events.after('s2_x.0:p');
    // MAXLEN ~ trims whole nodes of the stream: near 100, never the thousand.
    expect(kept!.frames.length).toBeGreaterThanOrEqual(100);
    expect(kept!.frames.length).toBeLessThan(300);
    expect(kept!.frames.at(-1)!.id).toBe(last);
    one.events.drop('s2_x.0');
    await written();
    expect(await two.events.after('s2_x.0:p')).toBeUndefined();
  });

  it('session records: caps across instances, principal kept, state-setting messages appended, removed everywhere', async () => {
    const limits = { idleTimeoutMs: 60_000, maxSessions: 2, maxSessionsPerClient: 1 };
    expect(
      await one.sessions.create(
        's-1',
        { principal: 'alice', client: 'id:alice', replay: ['{"init":1}'] },
        limits,
      ),
    ).toBeUndefined();
    expect(
      await two.sessions.create(
        's-2',
        { principal: 'alice', client: 'id:alice', replay: [] },
        limits,
      ),
    ).toBe('maxSessionsPerClient');
    expect(
      await two.sessions.create('s-3', { client: 'ip:10.0.0.1', replay: [] }, limits),
    ).toBeUndefined();
    expect(await one.sessions.create('s-4', { replay: [] }, limits)).toBe('maxSessions');
    expect(await two.sessions.append('s-1', '{"setLevel":1}')).toBe(true);
    expect(await two.sessions.touch('s-1', 60_000)).toEqual({
      principal: 'alice',
      client: 'id:alice',
      replay: ['{"init":1}', '{"setLevel":1}'],
    });
    expect(await two.sessions.holder('s-1')).toBeUndefined();
    await one.sessions.hold('s-1', one.nodeId, 60_000);
    expect(await two.sessions.holder('s-1')).toBe(one.nodeId);
    await two.sessions.hold('s-1', two.nodeId, 60_000);
    expect(await one.sessions.holder('s-1')).toBe(two.nodeId);
    expect(await one.sessions.remove('s-1')).toBe(true);
    expect(await two.sessions.touch('s-1', 60_000)).toBeUndefined();
    expect(await two.sessions.append('s-1', '{"late":1}')).toBe(false);
    expect(
      await one.sessions.create('s-5', { client: 'id:alice', replay: [] }, limits),
    ).toBeUndefined();
    await one.sessions.remove('s-3');
    await one.sessions.remove('s-5');
  });

  it('sessions expire when idle and stop counting against the caps', async () => {
    const limits = { idleTimeoutMs: 100, maxSessions: 1, maxSessionsPerClient: 1 };
    expect(await one.sessions.create('e-1', { replay: [] }, limits)).toBeUndefined();
    expect(await one.sessions.create('e-2', { replay: [] }, limits)).toBe('maxSessions');
    await new Promise((r) => setTimeout(r, 250));
    expect(await two.sessions.touch('e-1', 100)).toBeUndefined();
    expect(await two.sessions.create('e-3', { replay: [] }, limits)).toBeUndefined();
    await two.sessions.remove('e-3');
  });

  it('a Redis that cannot be reached at start is an error naming it (password hidden) and the fix, not a hang', async () => {
    const port = await freePort();
    await expect(
      redisStore({
        url: `redis://app:s3cret@127.0.0.1:${port}`,
        startupTimeoutMs: 500,
        onStatus: () => undefined,
      }),
    ).rejects.toThrow(
      new RegExp(
        `^@mcp-fw/redis: cannot reach Redis at redis://app:\\*\\*\\*@127\\.0\\.0\\.1:${port} within 500 ms \\(connect ECONNREFUSED .*\\); start Redis, or fix --redis / REDIS_URL$`,
      ),
    );
  });

  it('rate counters, used rounds, the bus and the requestState key are shared', async () => {
    expect(await one.rateLimits.hit('k', 2, 60_000)).toBe(0);
    expect(await two.rateLimits.hit('k', 2, 60_000)).toBe(0);
    const wait = await one.rateLimits.hit('k', 2, 60_000);
    expect(wait).toBeGreaterThan(59_000);
    expect(wait).toBeLessThanOrEqual(60_000);

    const expires = Date.now() + 60_000;
    expect(await one.usedRounds.markUsed('round-1', expires)).toBe(true);
    expect(await two.usedRounds.markUsed('round-1', expires)).toBe(false);
    expect(Number(redis.cli('PTTL', 'mcp:round:round-1'))).toBeGreaterThan(50_000);

    const heard: string[] = [];
    const stop = await two.bus.subscribe('topic', (m) => heard.push(m));
    await one.bus.publish('topic', 'hello');
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(['hello']);
    stop();

    expect(one.requestStateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(two.requestStateKey).toBe(one.requestStateKey);
    expect(one.nodeId).not.toBe(two.nodeId);
  });

  it('task records: caps across instances, first terminal write wins, pages by expiry, expired told apart', async () => {
    const limits = { maxTasks: 3, maxTasksPerOwner: 2 };
    const at = Date.now();
    const record = (owner: string, snapshot = '{"status":"working"}') => ({
      owner,
      node: one.nodeId,
      snapshot,
      terminal: false,
    });
    expect(await one.tasks.create('t-1', record('alice'), at + 60_000, limits)).toBeUndefined();
    expect(await two.tasks.create('t-2', record('alice'), at + 61_000, limits)).toBeUndefined();
    expect(await two.tasks.create('t-3', record('alice'), at + 62_000, limits)).toBe(
      'maxTasksPerOwner',
    );
    expect(await two.tasks.create('t-4', record('bob'), at + 62_000, limits)).toBeUndefined();
    expect(await one.tasks.create('t-5', record('carol'), at + 62_000, limits)).toBe('maxTasks');

    // Read from the other instance, exactly as written.
    expect(await two.tasks.get('t-1')).toEqual(record('alice'));
    expect(Number(redis.cli('PTTL', 'mcp:task:t-1'))).toBeGreaterThan(55_000);
    expect(await two.tasks.get('never')).toBeUndefined();

    // A cancel (terminal) on one instance wins over the work ending later on the other.
    expect(await two.tasks.update('t-1', '{"status":"input_required"}', false)).toBe(true);
    expect(await two.tasks.update('t-1', '{"status":"cancelled"}', true)).toBe(true);
    expect(await one.tasks.update('t-1', '{"status":"completed"}', true)).toBe(false);
    expect(await one.tasks.get('t-1')).toEqual({
      ...record('alice', '{"status":"cancelled"}'),
      terminal: true,
    });
    expect(await one.tasks.update('never', '{}', false)).toBe(false);

    // Pages in the order the tasks expire; the cursor goes on where the page ended.
    const first = await two.tasks.list('alice', undefined, 1);
    expect(first.ids).toEqual(['t-1']);
    expect(first.next).toEqual(expect.any(String));
    expect(await one.tasks.list('alice', first.next, 1)).toEqual({ ids: ['t-2'] });
    expect(await one.tasks.list('alice', undefined, 10)).toEqual({ ids: ['t-1', 't-2'] });
    expect(await one.tasks.list('nobody', undefined, 10)).toEqual({ ids: [] });
    await expect(one.tasks.list('alice', 'forged', 10)).rejects.toThrow(RangeError);

    // A short-lived task expires: its id then reads "expired", its slot is free again.
    expect(await one.tasks.create('t-6', record('dave'), Date.now() - 1_000, limits)).toBe(
      'maxTasks',
    );
    redis.cli('DEL', 'mcp:task:t-4');
    redis.cli('ZREM', 'mcp:tasks', 't-4');
    expect(await one.tasks.create('t-6', record('dave'), Date.now() + 50, limits)).toBeUndefined();
    for (let i = 0; i < 100 && (await two.tasks.get('t-6')) !== 'expired'; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(await two.tasks.get('t-6')).toBe('expired');
    expect(await two.tasks.list('dave', undefined, 10)).toEqual({ ids: [] });
    expect(
      await one.tasks.create('t-7', record('erin'), Date.now() + 60_000, limits),
    ).toBeUndefined();
  });

  it('task records: an instance is alive while it beats', async () => {
    expect(await two.tasks.alive(one.nodeId)).toBe(false);
    await one.tasks.beat(one.nodeId, 60);
    expect(await two.tasks.alive(one.nodeId)).toBe(true);
    for (let i = 0; i < 100 && (await two.tasks.alive(one.nodeId)); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(await two.tasks.alive(one.nodeId)).toBe(false);
  });
});
