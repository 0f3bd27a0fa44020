import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { INIT, messages, openStream, post, until } from './support/raw-http.ts';

// The session caps and the binding of a session to its principal hold across the cluster, not
// per instance: each node asks the one Redis.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const as = (user: string, sid?: string): Record<string, string> => ({
  authorization: `Bearer ${user}`,
  'mcp-protocol-version': '2025-11-25',
  ...(sid ? { 'mcp-session-id': sid } : {}),
});
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe.skipIf(!ready)(
  'cluster-wide session caps and principal binding (3 processes, Redis)',
  () => {
    let cluster: Cluster;

    beforeAll(async () => {
      // Configured by REDIS_URL here (the other files pass --redis).
      cluster = await Cluster.start(3, {
        REDIS_URL: 'set by Cluster.start',
        BEARER_AUTH: '1',
        MAX_SESSIONS: '3',
        MAX_SESSIONS_PER_CLIENT: '2',
      });
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
    });

    it('a session serves only its principal, on every node', async () => {
      const [a, b, c] = cluster.nodes;
      const opened = await post(a.url, INIT, as('alice'));
      expect(opened.status).toBe(200);
      const sid = opened.headers.get('mcp-session-id')!;
      // To anyone else the session is as unknown as one that never existed, wherever they ask.
      for (const node of [a, b, c]) {
        const stolen = await post(node.url, LIST, as('mallory', sid));
        expect(stolen.status).toBe(404);
        expect(messages(stolen)[0].error.code).toBe(-32001);
      }
      for (const node of [b, c]) {
        const own = await post(node.url, LIST, as('alice', sid));
        expect(own.status).toBe(200);
        expect(messages(own)[0].result.tools.length).toBeGreaterThan(0);
      }
      const ended = await fetch(c.url, { method: 'DELETE', headers: as('alice', sid) });
      expect(ended.status).toBe(200);
    });

    it('1,000 idle sessions in a cluster: maxSessions and maxSessionsPerClient evict the least recently used idle session on any node, as one node does; only sessions with open streams make a 503 / 429', async () => {
      const [a, b, c] = cluster.nodes;
      const open = (url: string, user: string) => post(url, INIT, as(user));
      const sid = (res: { headers: Headers }) => res.headers.get('mcp-session-id')!;
      const alive = async (user: string, id: string) =>
        (await post(cluster.balancer.url, LIST, as(user, id))).status;
      const first = await open(a.url, 'alice');
      const second = await open(b.url, 'alice');
      expect([first.status, second.status]).toEqual([200, 200]);
      // Alice is at her cap of 2: her third, on c, ends her least recently used idle one.
      const third = await open(c.url, 'alice');
      expect(third.status).toBe(200);
      expect(await alive('alice', sid(first))).toBe(404);
      expect(await alive('alice', sid(second))).toBe(200);
      // With a stream open on each, nothing of hers is idle: now her next is refused.
      const streams = [second, third].map((r) => openStream(c.url, as('alice', sid(r))));
      try {
        expect(await Promise.all(streams.map((s) => s.status))).toEqual([200, 200]);
        // Both streams are marked busy in Redis (told when the stream opens).
        await until(
          () => Number(cluster.redis.cli('EXISTS', `mcp:busy:${sid(third)}`)) === 1,
          'the busy mark',
        );
        const refused = await open(a.url, 'alice');
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBeTruthy();
        expect(messages(refused)[0].error.message).toMatch(/maxSessionsPerClient/);

        // The cluster's cap of 3: bob's idle session is the one that goes for carol.
        const bob = await open(b.url, 'bob');
        expect(bob.status).toBe(200);
        const carol = await open(a.url, 'carol');
        expect(carol.status).toBe(200);
        expect(await alive('bob', sid(bob))).toBe(404);
        expect(await alive('alice', sid(second))).toBe(200);
        // Carol's session busy too: every session has a stream open, so anyone's next is 503.
        const carolStream = openStream(b.url, as('carol', sid(carol)));
        streams.push(carolStream);
        expect(await carolStream.status).toBe(200);
        await until(
          () => Number(cluster.redis.cli('EXISTS', `mcp:busy:${sid(carol)}`)) === 1,
          'the busy mark',
        );
        for (const node of [a, b, c]) {
          const dave = await open(node.url, 'dave');
          expect(dave.status).toBe(503);
          expect(dave.headers.get('retry-after')).toBeTruthy();
          expect(messages(dave)[0].error.message).toMatch(/maxSessions\b/);
        }
        await fetch(c.url, { method: 'DELETE', headers: as('carol', sid(carol)) });
      } finally {
        for (const stream of streams) stream.close();
      }
      // Ended, so the first test's sessions (if run after) find room.
      for (const [user, res] of [
        ['alice', second],
        ['alice', third],
      ] as const)
        await fetch(c.url, { method: 'DELETE', headers: as(user, sid(res)) });
    });
  },
);
