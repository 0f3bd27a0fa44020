import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { INIT, messages, post } from './support/raw-http.ts';

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
    }, 60_000);

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

    it('maxSessionsPerClient and maxSessions count sessions opened on any node', async () => {
      const [a, b, c] = cluster.nodes;
      const open = (url: string, user: string) => post(url, INIT, as(user));
      const first = await open(a.url, 'alice');
      const second = await open(b.url, 'alice');
      expect([first.status, second.status]).toEqual([200, 200]);
      // Two on a and b: the third, on c, is over alice's cap of 2.
      const third = await open(c.url, 'alice');
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect(messages(third)[0].error.message).toMatch(/maxSessionsPerClient/);

      const bob = await open(c.url, 'bob');
      expect(bob.status).toBe(200);
      // Three sessions in the cluster: a fourth, from anyone, on any node, is over maxSessions.
      for (const node of [a, b, c]) {
        const carol = await open(node.url, 'carol');
        expect(carol.status).toBe(503);
        expect(messages(carol)[0].error.message).toMatch(/maxSessions/);
      }
      // Ending one anywhere frees its place everywhere.
      const sid = first.headers.get('mcp-session-id')!;
      expect((await fetch(c.url, { method: 'DELETE', headers: as('alice', sid) })).status).toBe(
        200,
      );
      expect((await open(a.url, 'carol')).status).toBe(200);
    });
  },
);
