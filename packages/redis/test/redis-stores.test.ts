import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStore } from '@mcp-fw/core/http';
import { type RedisEventStore, redisStore } from '@mcp-fw/redis';
import { patience } from '../../../test-support/patience.ts';
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
    // Trimmed to the newest 100, never the thousand.
    expect(kept!.frames.length).toBe(100);
    expect(kept!.frames.at(-1)!.id).toBe(last);
    one.events.drop('s2_x.0');
    await written();
    expect(await two.events.after('s2_x.0:p')).toBeUndefined();
  });

  it('event logs of large events: bounded in bytes (maxBytesPerStream), oldest trimmed first, an event over the bound alone not kept', async () => {
    const small = await redisStore({
      url: redis.url,
      events: { maxEventsPerStream: 1_000, maxBytesPerStream: 64 * 1024 },
    });
    try {
      const frame = (n: number) => JSON.stringify({ n, pad: 'p'.repeat(10 * 1024) });
      const ids = [];
      for (let n = 0; n < 20; n++) ids.push(small.events.append('big_x.0', frame(n), 'big'));
      small.events.append('big_x.0', 'q'.repeat(65 * 1024), 'big');
      await (small.events as RedisEventStore).written();
      const kept = (await small.events.after('big_x.0:p'))!.frames;
      // 20 events of 10 KiB: only the newest six fit in 64 KiB; the 65 KiB one is not kept.
      expect(kept.map((e) => e.id)).toEqual(ids.slice(-6));
      expect(Number(redis.cli('MEMORY', 'USAGE', 'mcp:events:big_x.0'))).toBeLessThan(128 * 1024);
      expect(Number(redis.cli('GET', 'mcp:events:big_x.0:bytes'))).toBeLessThanOrEqual(64 * 1024);
      small.events.drop('big_x.0');
      await (small.events as RedisEventStore).written();
      expect(redis.cli('EXISTS', 'mcp:events:big_x.0:bytes')).toBe('0');
    } finally {
      await small.close();
    }
  });

  const state = (initialize = '{"init":1}') => ({
    initialize,
    initialized: false,
    subscriptions: [] as string[],
  });

  it('session records: caps across instances, principal kept, state changes applied, removed everywhere', async () => {
    const limits = { idleTimeoutMs: 60_000, maxSessions: 2, maxSessionsPerClient: 1 };
    expect(
      await one.sessions.create(
        's-1',
        { principal: 'alice', client: 'id:alice', state: state() },
        limits,
      ),
    ).toBeUndefined();
    // s-1 has a stream open (busy): alice's second session finds none of hers idle to evict.
    await one.sessions.touch('s-1', 60_000, 5_000);
    expect(
      await two.sessions.create(
        's-2',
        { principal: 'alice', client: 'id:alice', state: state() },
        limits,
      ),
    ).toBe('maxSessionsPerClient');
    expect(
      await two.sessions.create('s-3', { client: 'ip:10.0.0.1', state: state() }, limits),
    ).toBeUndefined();
    await two.sessions.touch('s-3', 60_000, 5_000);
    expect(await one.sessions.create('s-4', { state: state() }, limits)).toBe('maxSessions');
    expect(
      await two.sessions.update('s-1', [
        { kind: 'initialized' },
        { kind: 'level', level: 'debug' },
        { kind: 'subscribe', uri: 'a://1' },
        { kind: 'subscribe', uri: 'a://2' },
      ]),
    ).toBe(true);
    expect(
      await one.sessions.update('s-1', [
        { kind: 'level', level: 'error' },
        { kind: 'unsubscribe', uri: 'a://1' },
        { kind: 'subscribe', uri: 'a://2' },
      ]),
    ).toBe(true);
    expect(await two.sessions.touch('s-1', 60_000)).toEqual({
      principal: 'alice',
      client: 'id:alice',
      state: {
        initialize: '{"init":1}',
        initialized: true,
        level: 'error',
        subscriptions: ['a://2'],
      },
    });
    expect(await two.sessions.holder('s-1')).toBeUndefined();
    await one.sessions.hold('s-1', one.nodeId, 60_000);
    expect(await two.sessions.holder('s-1')).toBe(one.nodeId);
    await two.sessions.hold('s-1', two.nodeId, 60_000);
    expect(await one.sessions.holder('s-1')).toBe(two.nodeId);
    expect(await one.sessions.remove('s-1')).toBe(true);
    expect(await two.sessions.touch('s-1', 60_000)).toBeUndefined();
    expect(await two.sessions.update('s-1', [{ kind: 'level', level: 'info' }])).toBe(false);
    expect(
      await one.sessions.create('s-5', { client: 'id:alice', state: state() }, limits),
    ).toBeUndefined();
    await one.sessions.remove('s-3');
    await one.sessions.remove('s-5');
  });

  it('1,000 idle sessions: at maxSessions the least recently used idle session is evicted, in all and per client, never a busy one', async () => {
    const limits = { idleTimeoutMs: 60_000, maxSessions: 3, maxSessionsPerClient: 2 };
    // The client's third session evicts its own oldest idle one (l-1) rather than being refused.
    for (const id of ['l-1', 'l-2', 'l-3'])
      expect(
        await one.sessions.create(id, { client: 'ip:10.0.0.9', state: state() }, limits),
      ).toBeUndefined();
    expect(await two.sessions.touch('l-1', 60_000)).toBeUndefined();
    expect(await two.sessions.touch('l-2', 60_000, 5_000)).toBeDefined();
    expect(await one.sessions.create('l-4', { state: state() }, limits)).toBeUndefined();
    // Full (l-2 busy, l-3, l-4): the least recently used idle one (l-3) goes for a newcomer.
    expect(await two.sessions.create('l-5', { state: state() }, limits)).toBeUndefined();
    expect(await one.sessions.touch('l-3', 60_000)).toBeUndefined();
    expect(await one.sessions.touch('l-2', 60_000)).toBeDefined();
    expect(Number(redis.cli('ZCARD', 'mcp:sessions'))).toBe(3);
    for (const id of ['l-2', 'l-4', 'l-5']) await one.sessions.remove(id);
  });

  it('40 logging/setLevel of 3 MiB each: the record keeps the state, not the messages, bounded in bytes', async () => {
    const limits = { idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerClient: 10 };
    const big = await redisStore({ url: redis.url, maxSessionRecordBytes: 4096 });
    try {
      expect(await big.sessions.create('b-1', { state: state('x'.repeat(5000)) }, limits)).toBe(
        'maxSessionRecordBytes',
      );
      expect(await big.sessions.create('b-1', { state: state() }, limits)).toBeUndefined();
      for (let i = 0; i < 40; i++)
        expect(await big.sessions.update('b-1', [{ kind: 'level', level: 'debug' }])).toBe(true);
      expect(Number(redis.cli('STRLEN', 'mcp:session:b-1'))).toBeLessThan(200);
      const uri = (n: number) => `res://${n}/${'u'.repeat(1000)}`;
      for (let n = 0; n < 3; n++)
        expect(await big.sessions.update('b-1', [{ kind: 'subscribe', uri: uri(n) }])).toBe(true);
      // The fourth would pass 4 KiB: refused, and nothing of it applied.
      expect(
        await big.sessions.update('b-1', [
          { kind: 'unsubscribe', uri: uri(0) },
          { kind: 'subscribe', uri: uri(3) },
          { kind: 'subscribe', uri: uri(4) },
        ]),
      ).toBe('maxSessionRecordBytes');
      expect((await big.sessions.touch('b-1', 60_000))?.state.subscriptions).toEqual([
        uri(0),
        uri(1),
        uri(2),
      ]);
      expect(Number(redis.cli('STRLEN', 'mcp:session:b-1'))).toBeLessThanOrEqual(4096);
      await big.sessions.remove('b-1');
    } finally {
      await big.close();
    }
  });

  it('sessions expire when idle and stop counting against the caps', async () => {
    const limits = { idleTimeoutMs: 100, maxSessions: 1, maxSessionsPerClient: 1 };
    expect(await one.sessions.create('e-1', { state: state() }, limits)).toBeUndefined();
    await one.sessions.touch('e-1', 100, 5_000);
    expect(await one.sessions.create('e-2', { state: state() }, limits)).toBe('maxSessions');
    await new Promise((r) => setTimeout(r, 250));
    expect(await two.sessions.touch('e-1', 100)).toBeUndefined();
    expect(await two.sessions.create('e-3', { state: state() }, limits)).toBeUndefined();
    await two.sessions.remove('e-3');
    await one.sessions.remove('e-1');
  });

  it('Redis loses its data, then one instance restarts: the requestState key is written back, or taken by every instance and said so, never a silent split', async () => {
    const told: string[] = [];
    const options = { url: redis.url, keyCheckMs: 50, onKeyChange: (m: string) => told.push(m) };
    const a = await redisStore(options);
    const b = await redisStore(options);
    const c = await redisStore(options);
    const key = a.requestStateKey;
    expect(b.requestStateKey).toBe(key);
    const settle = () => new Promise((r) => setTimeout(r, 300));
    try {
      // Lost, and no instance restarts meanwhile: the key is written back, the same as before.
      redis.cli('FLUSHALL');
      await settle();
      expect(redis.cli('GET', 'mcp:request-state-key')).toBe(key);
      expect(told.some((m) => /missing from Redis.*requestStateSecret/.test(m))).toBe(true);
      // Lost, and an instance restarted before anyone wrote it back: Redis holds the key that
      // instance made. The others take it (saying so) rather than keep signing with theirs.
      const made = 'f'.repeat(64);
      redis.cli('SET', 'mcp:request-state-key', made);
      const restarted = await redisStore({ ...options, keyCheckMs: 60_000 });
      try {
        expect(restarted.requestStateKey).toBe(made);
        await settle();
        expect([a.requestStateKey, b.requestStateKey, c.requestStateKey]).toEqual([
          made,
          made,
          made,
        ]);
        expect(told.some((m) => /not this instance's.*requestStateSecret/.test(m))).toBe(true);
      } finally {
        await restarted.close();
      }
      // With a secret, the key is derived from it: the same everywhere, whatever Redis holds.
      const secret = 's'.repeat(40);
      const d = await redisStore({ url: redis.url, requestStateSecret: secret });
      const e = await redisStore({ url: redis.url, requestStateSecret: secret });
      expect(d.requestStateKey).toBe(e.requestStateKey);
      expect(d.requestStateKey).not.toContain(secret);
      await Promise.all([d.close(), e.close()]);
      await expect(redisStore({ url: redis.url, requestStateSecret: 'short' })).rejects.toThrow(
        /requestStateSecret must be at least 32 characters/,
      );
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
      // The FLUSHALL and the key set above reached this file's shared stores too: each takes
      // Redis's key at its next check (every 2 s). Wait for both, or the next test could see one
      // switched and the other not yet.
      const until = Date.now() + patience(10_000);
      const key = () => redis.cli('GET', 'mcp:request-state-key');
      while (Date.now() < until && (one.requestStateKey !== key() || two.requestStateKey !== key()))
        await new Promise((r) => setTimeout(r, 50));
      expect([one.requestStateKey, two.requestStateKey]).toEqual([key(), key()]);
    }
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
