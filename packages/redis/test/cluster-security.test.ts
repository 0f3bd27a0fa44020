import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseOf } from '../../core/test/support/sse-messages.ts';
import { Cluster, HAPROXY, type NodeProcess, REDIS_SERVER } from './support/processes.ts';

// Issue #30, attacks on the cluster (3 processes on one redis-server behind HAProxy round-robin):
// each test is named after the attack and holds through the balancer and on every node.
const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';

/** One 2026-07-28 request of `user` to `url`: the status, headers and JSON-RPC response. */
async function modern(
  url: string,
  user: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; message: any }> {
  const name = (params.taskId ?? params.name) as string | undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${user}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const { status, headers } = response;
  return { status, headers, message: await responseOf(response) };
}

describe.skipIf(!ready)('security round two: tasks (3 processes, HAProxy, Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await Cluster.start(3, {
      TASK_TOOLS: '1',
      BEARER_AUTH: '1',
      MAX_TASKS_PER_OWNER: '2',
    });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  const start = async (node: NodeProcess | Cluster['balancer'], user: string) =>
    modern(node.url, user, 'tools/call', { name: 'hang', arguments: {} });

  it('cancel tasks, then start more: cancelled tasks free the budget at once on every node, the refusal is 429 -32000 with Retry-After', async () => {
    const [a, b, c] = cluster.nodes;
    const first = await start(a, 'alice');
    const second = await start(b, 'alice');
    const ids = [first, second].map((r) => r.message.result?.taskId as string);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    // Cancelled elsewhere than where they run, through the balancer.
    for (const taskId of ids) {
      await modern(cluster.balancer.url, 'alice', 'tasks/cancel', { taskId });
      const read = await modern(cluster.balancer.url, 'alice', 'tasks/get', { taskId });
      expect(read.message.result?.status).toBe('cancelled');
    }
    const again = [await start(c, 'alice'), await start(cluster.balancer, 'alice')];
    expect(again.map((r) => r.message.result?.status)).toEqual(['working', 'working']);
    for (const node of [a, b, c]) {
      const refused = await start(node, 'alice');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.message.error).toMatchObject({
        code: -32000,
        message: expect.stringContaining('limits.tasks.maxTasksPerOwner'),
        data: { limit: 'tasks.maxTasksPerOwner', status: 429 },
      });
    }
    // Another caller's budget is untouched.
    expect((await start(a, 'bob')).message.result?.status).toBe('working');
  });

  it('start a task while Redis is down: 503 with Retry-After naming Redis, never "Internal error"', async () => {
    await cluster.redis.stop();
    try {
      for (const node of cluster.nodes) {
        const refused = await start(node, 'carol');
        expect(refused.status).toBe(503);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(refused.message.error).toMatchObject({
          code: -32000,
          message: expect.stringMatching(/^Service unavailable: .*Redis cannot be reached/),
          data: { status: 503 },
        });
      }
    } finally {
      await cluster.redis.restart();
    }
  });
});
