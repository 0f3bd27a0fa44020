import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { INIT, messages, openStream, post, until } from './support/raw-http.ts';

// Issue #30 (security, round two), rows 6, 10, 11 and 12 through three nodes on one Redis
// behind HAProxy: the scope check of a listen stream, the separate namespaces of users and
// clients, answers only to questions asked, and absolute-form targets hold whichever node
// serves the request.
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
    cluster = await Cluster.start(3, { BEARER_AUTH: '1', LISTED_BY_SCOPES: '1' });
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

  it('a read-only token is not told of changes to members its scopes hide, raised on any node (legacy list_changed and listen streams)', async () => {
    const [a, b, c] = cluster.nodes;
    const legacy = (token: string, sid?: string) => ({
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-11-25',
      ...(sid ? { 'mcp-session-id': sid } : {}),
    });
    // A legacy session per token, opened on node a, listening on its standalone GET stream on
    // node b (which takes the session up from Redis).
    const sessions: { token: string; sid: string; stream: ReturnType<typeof openStream> }[] = [];
    for (const token of ['reader', 'boss+admin']) {
      const opened = await post(a.url, INIT, legacy(token));
      expect(opened.status).toBe(200);
      const sid = opened.headers.get('mcp-session-id')!;
      await post(
        a.url,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        legacy(token, sid),
      );
      sessions.push({ token, sid, stream: openStream(b.url, legacy(token, sid)) });
    }
    // A 2026-07-28 listen stream per token, on node c.
    const streams: { token: string; seen: string[]; close: () => void }[] = [];
    for (const token of ['reader', 'boss+admin']) {
      const controller = new AbortController();
      const response = await fetch(c.url, {
        method: 'POST',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modern(token, 'subscriptions/listen'),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'sub',
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: META },
        }),
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
      await until(
        () => seen.join('').includes('subscriptions/acknowledged'),
        'the acknowledgement',
      );
      streams.push({ token, seen, close: () => controller.abort() });
    }
    for (const s of sessions) expect(await s.stream.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const heard = {
      legacy: (i: number) =>
        sessions[i].stream.events.filter((e) => e.data.includes('notifications/tools/list_changed'))
          .length,
      listen: (i: number) =>
        streams[i].seen.join('').split('notifications/tools/list_changed').length - 1,
    };
    const call = (node: { url: string }, name: string, args: object) =>
      post(
        node.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args, _meta: META },
        },
        modern('reader', 'tools/call', name),
      );
    try {
      // Hiding vault (admin only) on every node: the admin streams hear 3, the reader's none.
      for (const node of [a, b, c])
        expect((await call(node, 'toggleVault', { show: false })).status).toBe(200);
      await until(
        () => heard.legacy(1) === 3 && heard.listen(1) === 3,
        `the admin to hear 3 changes (legacy ${heard.legacy(1)}, listen ${heard.listen(1)})`,
      );
      // A change the reader can see (spare, open to all), raised on node c: everyone hears it.
      expect((await call(c, 'bump', {})).status).toBe(200);
      await until(
        () =>
          heard.legacy(0) >= 1 &&
          heard.listen(0) >= 1 &&
          heard.legacy(1) === 4 &&
          heard.listen(1) === 4,
        'everyone to hear the spare change',
      );
      await new Promise((r) => setTimeout(r, 300));
      expect([heard.legacy(0), heard.listen(0)]).toEqual([1, 1]);
    } finally {
      for (const node of [a, b, c]) await call(node, 'toggleVault', { show: true });
      for (const s of streams) s.close();
      for (const s of sessions) {
        s.stream.close();
        await fetch(a.url, { method: 'DELETE', headers: legacy(s.token, s.sid) });
      }
    }
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

  it('tools/call with inputResponses for a question never asked and no requestState: the question is asked, on any node', async () => {
    for (const node of cluster.nodes) {
      const call = await post(
        node.url,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: {
            name: 'greet',
            arguments: {},
            inputResponses: { input_1: { action: 'accept', content: { name: 'Mallory' } } },
            _meta: {
              ...META,
              'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
            },
          },
        },
        modern('mallory', 'tools/call', 'greet'),
      );
      expect(messages(call)[0].result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { input_1: { method: 'elicitation/create' } },
      });
    }
  });

  it('POST http://evil.com/mcp (absolute-form target) through the balancer is refused, never served', async () => {
    const send = (headers: Record<string, string>) =>
      new Promise<{ status: number; session?: string; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: cluster.balancer.port,
            method: 'POST',
            path: 'http://evil.com/mcp',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: 'Bearer alice',
              ...headers,
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                session: res.headers['mcp-session-id'] as string | undefined,
                body: text,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(INIT));
      });
    // Behind HAProxy this held before the node refused absolute-form targets itself (the
    // single-node test in core's security-round-two.test.ts is the one that failed): a target
    // naming another host than Host is refused by HAProxy (400, RFC 9112 §3.2.2).
    const mismatched = await send({});
    expect(mismatched.status).toBe(400);
    expect(mismatched.session).toBeUndefined();
    // Host made to agree with the target: passed on, the node's Host check refuses evil.com.
    const agreed = await send({ host: 'evil.com' });
    expect(agreed.status).toBe(403);
    expect(agreed.session).toBeUndefined();
    expect(JSON.parse(agreed.body)).toMatchObject({ id: null, error: { code: -32000 } });
  });
});
