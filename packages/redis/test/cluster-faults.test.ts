import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { INIT, messages, post, until } from './support/raw-http.ts';

const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** An SDK v1 session through `url`; its GET stream goes to `streamUrl` when given. */
async function legacyClient(url: string, streamUrl?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) =>
      streamUrl && init?.method === 'GET' ? fetch(streamUrl, init) : fetch(input, init),
  });
  const client = new Client({ name: 'faults', version: '1.0.0' }, { capabilities: {} });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  await client.connect(transport);
  return { client, transport, updates };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;

describe.skipIf(!ready)('faults (3 processes, HAProxy, Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await Cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('Redis down: requests that need it get 503 with Retry-After, stateless 2026-07-28 calls are served; back up, service resumes without a restart', async () => {
    const [a, b] = cluster.nodes;
    const opened = await post(a.url, INIT);
    const sid = opened.headers.get('mcp-session-id')!;
    const greet = (url: string, id: number, extra: Record<string, unknown> = {}) =>
      post(
        url,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'greet',
            arguments: {},
            _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
            ...extra,
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' },
      );
    const round1 = messages(await greet(a.url, 10))[0].result;
    const [key] = Object.keys(round1.inputRequests);
    const retry = {
      inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } },
      requestState: round1.requestState,
    };
    await cluster.redis.stop();

    // A retry needs the record of used rounds: refused as at a limit, to be retried shortly.
    const refusedRetry = await greet(b.url, 11, retry);
    expect(refusedRetry.status).toBe(503);
    expect(refusedRetry.headers.get('retry-after')).toBe('1');
    expect(messages(refusedRetry)[0]).toEqual({
      jsonrpc: '2.0',
      id: 11,
      error: {
        code: -32000,
        message: expect.stringMatching(
          /^Service unavailable: Redis cannot be reached .*; retry in 1 s\.$/,
        ),
        data: { limit: 'inputRounds', status: 503, retryAfterS: 1 },
      },
    });

    const inSession = await post(
      b.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      { ...LEGACY, 'mcp-session-id': sid },
    );
    expect(inSession.status).toBe(503);
    expect(Number(inSession.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(messages(inSession)[0]).toMatchObject({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32000,
        message: expect.stringMatching(/^Service Unavailable: .*Redis cannot be reached/),
      },
    });
    const newSession = await post(cluster.balancer.url, INIT);
    expect(newSession.status).toBe(503);
    expect(newSession.headers.get('retry-after')).toBeTruthy();

    for (const node of cluster.nodes) {
      const stateless = await post(
        node.url,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'still here' }, _meta: META },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      );
      expect(stateless.status).toBe(200);
      expect(messages(stateless)[0].result.content[0].text).toBe('still here');
    }

    // Same port, empty (no persistence): old sessions are gone (404, the client initializes
    // again), new ones work on every node, and the bus is subscribed again.
    await cluster.redis.restart();
    let session: Awaited<ReturnType<typeof legacyClient>> | undefined;
    for (let i = 0; i < 50 && !session; i++) {
      session = await legacyClient(cluster.balancer.url).catch(async () => {
        await new Promise((r) => setTimeout(r, 200));
        return undefined;
      });
    }
    expect(session).toBeDefined();
    const served = new Set<string>();
    for (let i = 0; i < 6; i++)
      served.add(textOf(await session!.client.callTool({ name: 'whoami', arguments: {} })));
    expect([...served].sort()).toEqual(['a', 'b', 'c']);
    await session!.client.subscribeResource({ uri: 'cluster://status' });
    for (let i = 0; i < 3; i++) await session!.client.callTool({ name: 'touch', arguments: {} });
    await until(
      () => session!.updates.length === 3,
      'updates raised on every node after Redis returned',
    );
    const old = await post(
      b.url,
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { ...LEGACY, 'mcp-session-id': sid },
    );
    expect(old.status).toBe(404);
    await session!.transport.terminateSession();
    await session!.client.close();
  });

  it('a node killed with SIGKILL loses only the call it was running; the session, its GET stream and listen streams carry on', async () => {
    const [a, b] = cluster.nodes;
    // Calls go through the balancer (node a serves its share); the GET stream is held by b.
    const legacy = await legacyClient(cluster.balancer.url, b.url);
    await legacy.client.subscribeResource({ uri: 'cluster://status' });
    const sid = legacy.transport.sessionId!;
    const modern = new ClientV2(
      { name: 'faults', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: 'auto' as const } },
    );
    const modernUpdates: string[] = [];
    modern.setNotificationHandler('notifications/resources/updated', (n) => {
      modernUpdates.push(n.params.uri);
    });
    // The listen stream is held by node b (asked directly), so it survives a's death.
    await modern.connect(new TransportV2(new URL(b.url)));
    const listen = await modern.listen({ resourceSubscriptions: ['cluster://status'] });

    // A call running on node a when it dies: its client sees the response end, nothing else.
    const inFlight = post(
      a.url,
      {
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'slow', arguments: { ms: 20_000 } },
      },
      { ...LEGACY, 'mcp-session-id': sid },
    ).then(
      () => 'answered',
      () => 'lost',
    );
    await new Promise((r) => setTimeout(r, 300));
    await a.kill('SIGKILL');
    expect(await inFlight).toBe('lost');

    const served = new Set<string>();
    for (let i = 0; i < 6; i++)
      served.add(textOf(await legacy.client.callTool({ name: 'whoami', arguments: {} })));
    expect([...served].sort()).toEqual(['b', 'c']);
    // Updates raised by the survivors reach both clients' streams.
    for (let i = 0; i < 4; i++) await legacy.client.callTool({ name: 'touch', arguments: {} });
    await until(
      () => legacy.updates.length >= 4,
      `4 updates on the legacy GET stream (got ${legacy.updates.length})`,
      10_000,
    );
    expect(legacy.updates.length).toBe(4);
    await until(() => modernUpdates.length === 4, 'the 4 updates on the listen stream held by b');
    await listen.close().catch(() => undefined);
    await modern.close();
    await legacy.transport.terminateSession();
    await legacy.client.close();
  });
});
