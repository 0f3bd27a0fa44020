import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  DEFAULT_STATE_LIMITS,
  Resource,
  Tool,
  type AuditEntry,
  type Context,
  type ServerLimits,
} from '@mcp-fw/core';
import type { AuthOutcome, HttpRequestView } from '@mcp-fw/core/http';
import {
  JSON_AND_SSE,
  initializeBody,
  type RawResponse,
  type Surface,
  openSession,
} from './support/http-surfaces.ts';
import { envelope, modernPost, serve, sessionPost, sleep } from './support/security-http.ts';
import { MemoryEventStore } from '@mcp-fw/core/http';

let surface: Surface | undefined;
const open: RawResponse[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) r.abort();
  await surface?.close();
  surface = undefined;
});

class Feeds {
  @Resource('mem://item/{id}', { mimeType: 'text/plain' })
  item({ id }: { id: string }) {
    return `item ${id.length}`;
  }

  @Resource('mem://static', { mimeType: 'text/plain' })
  fixed() {
    return 'static';
  }

  @Tool({ description: 'Asks the user three things at once', input: z.object({}) })
  async survey(_: object, ctx: Context) {
    const ask = () => ctx.elicit('Name?', z.object({ name: z.string() }));
    const answers = await Promise.all([ask(), ask(), ask()]);
    return answers.map((a) => a.action).join(',');
  }
}

function byToken(req: HttpRequestView): AuthOutcome {
  const user = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '')?.[1];
  return user ? { auth: { sub: user } } : { reject: { message: 'Unauthorized' } };
}
const as = (user: string) => ({ authorization: `Bearer ${user}` });

function feeds(limits: ServerLimits, entries: AuditEntry[] = []) {
  return createServer({
    name: 'feeds',
    version: '1',
    providers: [Feeds],
    limits,
    audit: { sink: (e) => entries.push(e) },
  });
}

/** A 1 KB URI a template serves. */
const kbUri = (i: number) => `mem://item/${String(i).padStart(1024, 'x')}`;

function listen(s: Surface, id: number, user: string, uris: string[] = []): Promise<RawResponse> {
  return modernPost(
    s,
    {
      id,
      method: 'subscriptions/listen',
      params: { _meta: envelope(), notifications: { resourceSubscriptions: uris } },
    },
    as(user),
  );
}

/** Opens a listen stream and reads its acknowledgement. */
async function held(s: Surface, id: number, user: string, uris: string[] = []): Promise<any> {
  const res = await listen(s, id, user, uris);
  expect(res.status).toBe(200);
  expect(res.header('content-type')).toBe('text/event-stream');
  open.push(res);
  return JSON.parse((await res.nextEvent())!.data);
}

describe('security: every piece of client-made state is bounded (issue #15)', () => {
  it('500 subscriptions/listen streams, each subscribing to 2,000 URIs of 1 KB: refused past the URI, per-client and per-server caps, with 429/503, Retry-After and the audit log', async () => {
    const entries: AuditEntry[] = [];
    const server = feeds(
      { maxListenStreams: 5, maxListenStreamsPerClient: 3, maxSubscriptionsPerStream: 5 },
      entries,
    );
    surface = await serve(server, { authenticate: byToken });
    const s = surface;

    // 2,000 URIs of 1 KB on one stream: over the per-stream cap, in band (-32602).
    const many = await listen(
      s,
      1,
      'mallory',
      Array.from({ length: 2000 }, (_, i) => kbUri(i)),
    );
    expect(many.status).toBe(200);
    const tooMany = JSON.parse(await many.text());
    expect(tooMany.error).toMatchObject({
      code: -32602,
      data: { limit: 'maxSubscriptionsPerStream' },
    });
    expect(tooMany.error.message).toMatch(
      /2000 URIs.*at most 5.*raise limits\.maxSubscriptionsPerStream/,
    );

    // Within it, URIs are honoured; ones nothing serves are left out of the ack.
    const ack = await held(s, 2, 'mallory', [kbUri(1), kbUri(2), 'mem://nowhere']);
    expect(ack.params.notifications.resourceSubscriptions).toEqual([kbUri(1), kbUri(2)]);
    await held(s, 3, 'mallory');
    await held(s, 4, 'mallory');

    // Streams past the client's share: 429, -32000, the limit named.
    for (let i = 0; i < 500; i += 100) {
      const refused = await listen(s, 10 + i, 'mallory', [kbUri(i)]);
      expect(refused.status).toBe(429);
      expect(Number(refused.header('retry-after'))).toBeGreaterThan(0);
      const body = JSON.parse(await refused.text());
      expect(body.error).toMatchObject({
        code: -32000,
        data: { limit: 'maxListenStreamsPerClient' },
      });
      expect(body.error.message).toContain('raise limits.maxListenStreamsPerClient');
    }

    // Other clients still get streams, until the server's cap: 503.
    await held(s, 20, 'alice');
    await held(s, 21, 'bob');
    const full = await listen(s, 22, 'carol');
    expect(full.status).toBe(503);
    expect(full.header('retry-after')).toBeDefined();
    expect(JSON.parse(await full.text()).error.data.limit).toBe('maxListenStreams');

    const refusals = entries
      .filter((e) => e.outcome === 'refused')
      .map((e) => [e.tool, e.limit, e.identity]);
    expect(refusals).toEqual([
      ['subscriptions/listen', 'maxSubscriptionsPerStream', 'mallory'],
      ...Array.from({ length: 5 }, () => [
        'subscriptions/listen',
        'maxListenStreamsPerClient',
        'mallory',
      ]),
      ['subscriptions/listen', 'maxListenStreams', 'carol'],
    ]);

    // A stream that ends gives its place back, once the server has seen the close (polled:
    // how soon that is depends on the machine's load).
    open.shift()!.abort();
    let again = await listen(s, 23, 'carol');
    for (let tries = 1; again.status !== 200 && tries < 200; tries++) {
      await again.text();
      await sleep(25);
      again = await listen(s, 23 + tries, 'carol');
    }
    expect(again.status).toBe(200);
    open.push(again);
  });

  it('listen streams hold at most maxSubscriptions resource subscriptions across the server', async () => {
    surface = await serve(feeds({ maxSubscriptions: 8, maxSubscriptionsPerStream: 5 }), {
      authenticate: byToken,
    });
    await held(surface, 1, 'alice', [1, 2, 3, 4, 5].map(kbUri));
    const over = await listen(surface, 2, 'bob', [6, 7, 8, 9, 10].map(kbUri));
    expect(over.status).toBe(503);
    expect(JSON.parse(await over.text()).error.data.limit).toBe('maxSubscriptions');
    await held(surface, 3, 'bob', [6, 7, 8].map(kbUri));
  });

  it('one legacy session sends 20,000 resources/subscribe (URIs that match nothing): each gets resource-not-found and nothing is kept', async () => {
    const server = feeds({ maxSubscriptions: 50 });
    surface = await serve(server);
    const session = await openSession(surface, '2025-03-26');
    await (await sessionPost(surface, session, { method: 'notifications/initialized' })).text();
    // 2025-03-26 takes batches: the whole attack in one POST.
    const batch = Array.from({ length: 20_000 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'resources/subscribe',
      params: { uri: `nothing://${i}` },
    }));
    const res = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
      body: JSON.stringify(batch),
    });
    const answers = JSON.parse(await res.text()) as any[];
    // Checked in one pass, not with 20,000 expect() calls: those kept this process (the server's
    // too) busy for 2.7 s at a load average of 20, 5 s and more at times, while the client's
    // kept-alive connection sat idle past the server's 5 s keepAliveTimeout. The next request
    // then went out on it in the same tick, before the overdue timer closed it, and failed with
    // ECONNRESET: a keep-alive race of the test's own making (client and server share one event
    // loop here; any in-process server does it after a 6 s busy loop), not a server fault.
    expect(answers).toHaveLength(20_000);
    // Every id answered once (20,000 answers, each id one of the 20,000 sent, none twice).
    expect(new Set(answers.map((a) => a.id)).size).toBe(20_000);
    const wrong = answers.filter(
      (a) =>
        !(Number.isInteger(a.id) && a.id >= 0 && a.id < 20_000) ||
        JSON.stringify(a.error) !==
          JSON.stringify({
            code: -32002,
            message: `Resource not found: nothing://${a.id}`,
            data: { uri: `nothing://${a.id}` },
          }),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    // Nothing was kept: the server-wide subscription budget is untouched.
    expect(server.guards.state.usage.subscriptions).toBe(0);
    const ok = JSON.parse(
      await (
        await sessionPost(surface, session, {
          id: 'x',
          method: 'resources/subscribe',
          params: { uri: 'mem://static' },
        })
      ).text(),
    );
    expect(ok).toEqual({ jsonrpc: '2.0', id: 'x', result: {} });
    expect(server.guards.state.usage.subscriptions).toBe(1);
  });

  it('a legacy session holds at most maxSubscriptionsPerSession subscriptions; the next is refused with the limit named and audited, and closing the session frees them', async () => {
    const entries: AuditEntry[] = [];
    const server = feeds({ maxSubscriptionsPerSession: 5 }, entries);
    surface = await serve(server);
    const session = await openSession(surface);
    const subscribe = async (id: number) =>
      JSON.parse(
        await (
          await sessionPost(surface!, session, {
            id,
            method: 'resources/subscribe',
            params: { uri: kbUri(id) },
          })
        ).text(),
      );
    for (let i = 0; i < 5; i++) expect((await subscribe(i)).result).toEqual({});
    const refused = await subscribe(5);
    expect(refused.error).toMatchObject({
      code: -32000,
      data: { limit: 'maxSubscriptionsPerSession' },
    });
    expect(refused.error.message).toContain('raise limits.maxSubscriptionsPerSession');
    expect(
      entries.filter((e) => e.outcome === 'refused').map((e) => [e.tool, e.limit, e.requestId]),
    ).toEqual([['resources/subscribe', 'maxSubscriptionsPerSession', 5]]);
    expect(server.guards.state.usage.subscriptions).toBe(5);
    await surface.send({ method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': session } });
    expect(server.guards.state.usage.subscriptions).toBe(0);
  });

  it('a client that never answers server→client requests: at most maxPendingClientRequests wait per connection, the next is refused', async () => {
    const entries: AuditEntry[] = [];
    surface = await serve(feeds({ maxPendingClientRequests: 2 }, entries));
    const session = await openSession(surface, '2025-11-25', { elicitation: {} });
    await (await sessionPost(surface, session, { method: 'notifications/initialized' })).text();
    const call = await sessionPost(surface, session, {
      id: 7,
      method: 'tools/call',
      params: { name: 'survey', arguments: {} },
    });
    const frames: any[] = [];
    for (let e = await call.nextEvent(); e; e = await call.nextEvent())
      if (e.data) frames.push(JSON.parse(e.data));
    expect(frames.filter((f) => f.method === 'elicitation/create')).toHaveLength(2);
    const result = frames.find((f) => f.id === 7).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(
      /elicitation\/create refused: 2 requests .*raise limits\.maxPendingClientRequests/,
    );
    expect(
      entries.filter((e) => e.limit === 'maxPendingClientRequests').map((e) => e.tool),
    ).toEqual(['tools/call']);
  });

  it('one busy session cannot push every other session out of the resumption event store; size is bounded too', () => {
    const store = new MemoryEventStore({
      maxEvents: 100,
      maxEventsPerSession: 20,
      maxBytes: 5_000,
    });
    for (let i = 0; i < 10; i++) store.append('b_1', `{"n":${i}}`, 'b');
    for (let i = 0; i < 5_000; i++) store.append(`a_${i % 7}`, `{"n":${i}}`, 'a');
    expect(store.after('b_1:p')!.frames.map((f) => f.frame)).toEqual(
      Array.from({ length: 10 }, (_, i) => `{"n":${i}}`),
    );
    expect(store.usage.events).toBe(30);
    for (let i = 0; i < 10; i++) store.append(`c_${i}`, 'x'.repeat(1_000), `c${i}`);
    expect(store.usage.bytes).toBeLessThanOrEqual(5_000);
    store.drop('b_1');
    expect(store.after('b_1:p')).toBeUndefined();
  });

  it('the defaults of every bound are finite', async () => {
    const events = new MemoryEventStore();
    for (let i = 0; i < 30_000; i++) events.append(`s${i % 40}_1`, '{}', `s${i % 40}`);
    expect(events.usage.events).toBe(10_000);
    for (let i = 0; i < 5_000; i++) events.append('one_1', '{}', 'one');
    expect(events.after('one_1:p')!.frames).toHaveLength(1_000);

    surface = await serve(feeds({}), { authenticate: byToken });
    for (let i = 0; i < 150; i++) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, ...as('mallory') },
        body: initializeBody(),
      });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(surface.sessionCount()).toBe(100);

    for (const [name, value] of Object.entries(DEFAULT_STATE_LIMITS)) {
      expect(Number.isInteger(value), name).toBe(true);
      expect(value, name).toBeGreaterThan(0);
    }
    expect(DEFAULT_STATE_LIMITS).toEqual({
      maxListenStreams: 1000,
      maxListenStreamsPerClient: 16,
      maxSubscriptionsPerStream: 100,
      maxSubscriptionsPerSession: 100,
      maxSubscriptions: 10_000,
      maxPendingClientRequests: 32,
    });
    expect(() =>
      createServer({ name: 'x', version: '1', limits: { maxListenStreams: 0 } }),
    ).toThrow(/maxListenStreams must be an integer ≥ 1/);
  });
});
