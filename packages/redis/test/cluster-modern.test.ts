import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Cluster, HAPROXY, REDIS_SERVER } from './support/processes.ts';
import { messages, post, until } from './support/raw-http.ts';
import { greetThrice } from './support/greetings.ts';

// 2026-07-28 is stateless per request; what crosses nodes is server-wide events (listen streams),
// input rounds (signed requestState, one key for the cluster) and the record of used rounds.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

function callHeaders(name: string): Record<string, string> {
  return { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
}

describe.skipIf(!ready)('2026-07-28 across nodes (3 processes, HAProxy, Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await Cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('client v2: a listen stream on one node hears updates and list changes raised on the others; input rounds resume on any node', async () => {
    const client = new Client(
      { name: 'cluster-test', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' as const } },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: `Ada${++asked}` },
    }));
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.balancer.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const subscription = await client.listen({
      resourceSubscriptions: ['cluster://status'],
      toolsListChanged: true,
    });

    const raisedOn = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'touch', arguments: {} });
      raisedOn.add((result.content as { text: string }[])[0].text);
    }
    expect([...raisedOn].sort()).toEqual(['a', 'b', 'c']);
    await until(
      () => updates.length === 6,
      `6 updates on the listen stream (got ${updates.length})`,
    );
    await client.callTool({ name: 'bump', arguments: {} });
    await until(() => listChanged === 1, 'tools/list_changed on the listen stream');

    // Each retry lands on the next node, where no handler waits: it is replayed from the signed
    // state, whose key every node shares.
    expect(await greetThrice(client)).toEqual(['Hello, Ada1', 'Hello, Ada2', 'Hello, Ada3']);
    await subscription.close();
    await client.close();
  });

  it('a round answered on one node is refused on every other', async () => {
    const [a, b, c] = cluster.nodes;
    const call = (url: string, id: number, extra: Record<string, unknown> = {}) =>
      post(
        url,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'greet', arguments: {}, _meta: META, ...extra },
        },
        callHeaders('greet'),
      );
    const round1 = messages(await call(a.url, 1))[0].result;
    expect(round1.resultType).toBe('input_required');
    const [key] = Object.keys(round1.inputRequests);
    const retry = {
      inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } },
      requestState: round1.requestState,
    };
    const answered = messages(await call(b.url, 2, retry))[0];
    expect(answered.result.content[0].text).toBe('Hello, Grace, from b');
    for (const node of [a, b, c]) {
      const again = messages(await call(node.url, 3, retry))[0];
      expect(again.error).toEqual({
        code: -32602,
        message:
          'Invalid params: round 1 of this call was already answered; each requestState is answered once (start the call again for a new one)',
      });
    }
  });
});
