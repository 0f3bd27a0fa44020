import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Balancer, HAPROXY, NodeProcess, REDIS_SERVER, RedisProcess } from './support/processes.ts';
import { INIT, messages, openStream, post, until } from './support/raw-http.ts';
import { greetThrice } from './support/greetings.ts';

// Three real server processes on one redis-server, behind HAProxy round-robin without affinity:
// a 2025-era session is served by whichever node each request lands on.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

describe.skipIf(!ready)('legacy sessions on any node (3 processes, HAProxy, Redis)', () => {
  let redis: RedisProcess;
  let nodes: NodeProcess[];
  let balancer: Balancer;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    nodes = await Promise.all(['a', 'b', 'c'].map((n) => NodeProcess.start(n, redis.url)));
    balancer = await Balancer.start(nodes.map((n) => n.port));
  }, 60_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all((nodes ?? []).map((n) => n.kill()));
    await redis?.stop();
  });

  it('serves one SDK v1 session from every node: calls, updates raised anywhere reach the GET stream, elicitation answered on another node, DELETE ends it everywhere', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(balancer.url));
    const client = new Client(
      { name: 'cluster-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: `Ada${++asked}` },
    }));
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const served = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      served.add((result.content as { text: string }[])[0].text);
    }
    // Round-robin without affinity: the one session was served by all three.
    expect([...served].sort()).toEqual(['a', 'b', 'c']);

    await client.subscribeResource({ uri: 'cluster://status' });
    const raisedOn = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'touch', arguments: {} });
      raisedOn.add((result.content as { text: string }[])[0].text);
    }
    expect(raisedOn.size).toBeGreaterThanOrEqual(2);
    // Every update, whichever node raised it, reached the one GET stream (held by one node).
    await until(() => updates.length === 6, `6 resource updates (got ${updates.length})`);
    expect(updates).toEqual(Array(6).fill('cluster://status'));

    // The question goes out on the POST's stream from the node running the handler; the answer
    // is a new POST the balancer sends to the next node.
    expect(await greetThrice(client)).toEqual(['Hello, Ada1', 'Hello, Ada2', 'Hello, Ada3']);

    await client.callTool({ name: 'bump', arguments: {} });
    await until(() => listChanged >= 1, 'tools/list_changed');

    await transport.terminateSession();
    await client.close();
    // Ended on whichever node took the DELETE: every node now answers 404.
    for (const node of nodes) {
      const res = await post(
        node.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      );
      expect(res.status).toBe(404);
    }
  });

  it('SDK v1 resumption: a call whose stream was lost is resumed with its token through the balancer, wherever the GET lands', async () => {
    const first = new StreamableHTTPClientTransport(new URL(balancer.url));
    const client = new Client({ name: 'resume-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(first);
    const sessionId = first.sessionId!;
    let token: string | undefined;
    const progress: number[] = [];
    const call = {
      method: 'tools/call' as const,
      params: { name: 'ticker', arguments: { ticks: 6, ms: 250 } },
    };
    const lost = client
      .request(call, CallToolResultSchema, {
        onprogress: (p) => progress.push(p.progress),
        onresumptiontoken: (t) => {
          token = t;
        },
      })
      .then(
        () => 'answered',
        () => 'lost',
      );
    await until(
      () => progress.length >= 2 && token !== undefined,
      'two progress events and a token',
    );
    // The client goes away mid-call; the node running it keeps its events in Redis.
    await first.close();
    expect(await lost).toBe('lost');

    const second = new StreamableHTTPClientTransport(new URL(balancer.url), { sessionId });
    const again = new Client({ name: 'resume-test', version: '1.0.0' }, { capabilities: {} });
    // The replayed progress carries the first request's token, which the SDK reports as unknown.
    const resumed: number[] = [];
    again.onerror = (error) => {
      const match = /"progress":(\d+)/.exec(String(error));
      if (match) resumed.push(Number(match[1]));
    };
    await again.connect(second);
    const result = await again.request(call, CallToolResultSchema, {
      resumptionToken: token,
      timeout: 20_000,
    });
    expect((result.content[0] as { text: string }).text).toMatch(/^ticked 6 on [abc]$/);
    // Nothing lost, nothing twice: what the first stream delivered, then the rest.
    expect([...progress, ...resumed]).toEqual([1, 2, 3, 4, 5, 6]);
    await second.terminateSession();
    await again.close();
  });

  it('resumes the standalone stream with Last-Event-ID on another node, missing nothing', async () => {
    const [a, b, c] = nodes;
    const opened = await post(a.url, INIT);
    expect(opened.status).toBe(200);
    const sid = opened.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    await post(b.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const subscribed = await post(
      c.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'cluster://status' } },
      headers,
    );
    expect(messages(subscribed)[0].result).toEqual({});

    const first = openStream(b.url, headers);
    expect(await first.status).toBe(200);
    const call = (id: number, url: string) =>
      post(
        url,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'touch', arguments: {} } },
        headers,
      );
    await call(3, a.url);
    await until(() => first.events.length === 1, 'the first update on node b');
    first.close();
    const lastId = first.events[0].id!;
    expect(lastId).toBeTruthy();

    // Raised while no stream is open: node b, which held it last, keeps it for a resume. It
    // hears of it over the bus, so the event lands in Redis a moment after the call returns; a
    // client resuming within that moment would miss it (real clients wait `retry` first).
    await call(4, a.url);
    const log = `mcp:events:${sid}_get`;
    await until(() => redis.cli('XLEN', log) === '2', 'the missed update stored by node b');
    // Node c takes the stream over from lastId: the missed update first, then what is raised anywhere.
    const resumed = openStream(c.url, { ...headers, 'last-event-id': lastId });
    expect(await resumed.status).toBe(200);
    await until(() => resumed.events.length === 1, 'the missed update replayed on node c');
    await call(5, b.url);
    await until(() => resumed.events.length === 2, 'a live update on the resumed stream on node c');
    expect(resumed.events.map((e) => JSON.parse(e.data).method)).toEqual([
      'notifications/resources/updated',
      'notifications/resources/updated',
    ]);
    resumed.close();

    // Events the holder stored before the stream was lost come back on any node.
    const again = openStream(a.url, { ...headers, 'last-event-id': lastId });
    expect(await again.status).toBe(200);
    await until(() => again.events.length === 2, 'the two stored updates replayed on node a');
    again.close();
    const end = await fetch(b.url, { method: 'DELETE', headers });
    expect(end.status).toBe(200);
  });
});
