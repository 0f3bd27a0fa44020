import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Context, createServer, Tool } from '@mcp-fw/core';
import type { McpHttpHandler } from '@mcp-fw/core/http';
import { REDIS_SERVER } from './support/processes.ts';
import { twoInstancesOnRedis } from './support/two-instances.ts';

// Issue #30, scope 1 ("every piece of client-made state kept in a shared store is bounded"):
// each answered 2026-07-28 input round is a record in Redis kept until its state expires (10 min
// by default), and nothing bounded how many one client, or all, could make — a client looping
// call → answer filled Redis at will. Against a real redis-server, two instances on one Redis.

class Desk {
  @Tool({ description: 'Asks for a confirmation', input: z.object({}) })
  async confirm(_: object, ctx: Context) {
    const answer = await ctx.elicit('Sure?', z.object({ ok: z.boolean() }));
    return answer.action === 'accept' ? 'confirmed' : answer.action;
  }
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

async function post(mcp: McpHttpHandler, who: string, params: Record<string, unknown>) {
  const res = await mcp.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'confirm',
        authorization: `Bearer ${who}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'confirm', arguments: {}, ...params, _meta: META },
      }),
    }),
  );
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as any,
  };
}

/** One whole round: the call asks, the answer (on `answerOn`) is recorded. */
async function round(ask: McpHttpHandler, answerOn: McpHttpHandler, who: string) {
  const asked = await post(ask, who, {});
  expect(asked.body.result).toMatchObject({ resultType: 'input_required' });
  const key = Object.keys(asked.body.result.inputRequests)[0];
  return post(answerOn, who, {
    requestState: asked.body.result.requestState,
    inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
  });
}

describe.skipIf(REDIS_SERVER === undefined)('answered input rounds in a shared Redis store', () => {
  const cluster = twoInstancesOnRedis(() =>
    createServer({
      name: 'desk',
      version: '1.0.0',
      providers: [Desk],
      limits: { inputRounds: { maxAnsweredPerClient: 2, maxAnswered: 3 } },
    }),
  );

  it('one client answering round after round is refused at limits.inputRounds.maxAnsweredPerClient (-32000, 429 with Retry-After) on every instance; the server at maxAnswered (503)', async () => {
    const [one, two] = cluster.instances;
    expect((await round(one, two, 'ada')).body.result.content[0].text).toBe('confirmed');
    expect((await round(two, one, 'ada')).body.result.content[0].text).toBe('confirmed');
    for (const [ask, answer] of [
      [one, two],
      [two, one],
    ]) {
      const refused = await round(ask, answer, 'ada');
      expect(refused.status).toBe(429);
      // Until ada's oldest round expires (its state lives 10 min).
      expect(Number(refused.retryAfter)).toBeGreaterThan(500);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(600);
      expect(refused.body.error).toMatchObject({
        code: -32000,
        data: { limit: 'inputRounds.maxAnsweredPerClient' },
      });
      expect(refused.body.error.message).toMatch(
        /^Too many answered input rounds: this client has 2 remembered \(limits\.inputRounds\.maxAnsweredPerClient\), each kept until its state expires; retry in \d+ s, or raise limits\.inputRounds\.maxAnsweredPerClient$/,
      );
    }
    // Another client has its own share, until the server's is used up.
    expect((await round(one, two, 'bob')).body.result.content[0].text).toBe('confirmed');
    const full = await round(two, one, 'bob');
    expect(full.status).toBe(503);
    expect(full.retryAfter).not.toBeNull();
    expect(full.body.error).toMatchObject({
      code: -32000,
      data: { limit: 'inputRounds.maxAnswered' },
    });
    expect(full.body.error.message).toContain(
      'the server remembers 3 (limits.inputRounds.maxAnswered)',
    );
    // Redis holds what was recorded, no more: 3 rounds, counted per client and in all.
    expect(cluster.redis.cli('ZCARD', 'mcp:rounds')).toBe('3');
    expect(
      cluster.redis.cli('--scan', '--pattern', 'mcp:round:*').split('\n').filter(Boolean),
    ).toHaveLength(3);
  });

  it('the store frees a place when a round expires, and its counting sets expire with their newest round', async () => {
    const used = cluster.stores[0].usedRounds;
    const caps = { client: 'identity:carol', maxAnswered: 100, maxAnsweredPerClient: 1 };
    const soon = Date.now() + 300;
    expect(await used.markUsed('carol-1', soon, caps)).toBe(true);
    expect(await cluster.stores[1].usedRounds.markUsed('carol-1', soon, caps)).toBe(false);
    const refusal = await cluster.stores[1].usedRounds.markUsed(
      'carol-2',
      Date.now() + 60_000,
      caps,
    );
    expect(refusal).toMatchObject({ limit: 'maxAnsweredPerClient' });
    expect((refusal as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 350));
    expect(await used.markUsed('carol-2', Date.now() + 60_000, caps)).toBe(true);
    const sets = cluster.redis
      .cli('--scan', '--pattern', 'mcp:rounds*')
      .split('\n')
      .filter(Boolean);
    expect(sets.length).toBeGreaterThan(0);
    for (const key of sets) expect(Number(cluster.redis.cli('PTTL', key))).toBeGreaterThan(50_000);
  });
});
