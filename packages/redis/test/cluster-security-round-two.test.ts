import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { INIT, messages, post, until } from './support/raw-http.ts';

// Issue #30 (security, round two), rows 6 and 10 through three nodes on one Redis behind
// HAProxy: the scope check of a listen stream and the separate namespaces of users and clients
// hold whichever node serves the request.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modern = (token: string, method: string, name?: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});
const listenBody = (uris: string[]) => ({
  jsonrpc: '2.0',
  id: 'sub',
  method: 'subscriptions/listen',
  params: { notifications: { resourceSubscriptions: uris }, _meta: META },
});

describe.skipIf(!ready)('security, round two, across nodes (3 processes, HAProxy, Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await Cluster.start(3, { BEARER_AUTH: '1' });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('2026-07-28 subscriptions/listen with a read-only token receives no update of a resource that needs admin, on any node', async () => {
    for (const node of cluster.nodes) {
      // Read without waiting for the end: a listen that is let through never ends.
      const refused = await fetch(node.url, {
        method: 'POST',
        signal: AbortSignal.timeout(10_000),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modern('reader', 'subscriptions/listen'),
        },
        body: JSON.stringify(listenBody(['cluster://status', 'cluster://admin'])),
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        id: 'sub',
        error: { message: 'Forbidden: cluster://admin needs admin' },
      });
    }
    // With the scope, through the balancer: updates raised on every node arrive.
    const controller = new AbortController();
    const response = await fetch(cluster.balancer.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...modern('boss+admin', 'subscriptions/listen'),
      },
      body: JSON.stringify(listenBody(['cluster://admin'])),
    });
    expect(response.status).toBe(200);
    const seen: string[] = [];
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          seen.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        // aborted
      }
    })();
    await until(() => seen.join('').includes('subscriptions/acknowledged'), 'the acknowledgement');
    const raisedOn = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const touched = await post(
        cluster.balancer.url,
        {
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'touchAdmin', arguments: {}, _meta: META },
        },
        modern('reader', 'tools/call', 'touchAdmin'),
      );
      raisedOn.add(messages(touched)[0].result.content[0].text);
    }
    expect([...raisedOn].sort()).toEqual(['a', 'b', 'c']);
    const updates = () => seen.join('').split('notifications/resources/updated').length - 1;
    await until(() => updates() === 3, `3 updates of cluster://admin (got ${updates()})`);
    controller.abort();
  });

  it("a token with no sub whose client_id equals a user's sub cannot use that user's session, on any node", async () => {
    const [a, b, c] = cluster.nodes;
    const legacy = (token: string, sid?: string) => ({
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-11-25',
      ...(sid ? { 'mcp-session-id': sid } : {}),
    });
    const opened = await post(a.url, INIT, legacy('alice'));
    expect(opened.status).toBe(200);
    const sid = opened.headers.get('mcp-session-id')!;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    for (const node of [a, b, c]) {
      const stolen = await post(node.url, list, legacy('client=alice', sid));
      expect(stolen.status).toBe(404);
    }
    const own = await post(c.url, list, legacy('alice', sid));
    expect(own.status).toBe(200);
    await fetch(b.url, { method: 'DELETE', headers: legacy('alice', sid) });
  });
});
