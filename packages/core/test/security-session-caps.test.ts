import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type AuditEntry } from '@mcp-fw/core';
import type { AuthOutcome, HttpRequestView } from '@mcp-fw/core/http';
import {
  JSON_AND_SSE,
  initializeBody,
  type RawResponse,
  type Surface,
} from './support/http-surfaces.ts';
import { serve, sessionPost } from './support/security-http.ts';

let surface: Surface | undefined;
const streams: RawResponse[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.abort();
  await surface?.close();
  surface = undefined;
});

class Tools {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }
}

function byToken(req: HttpRequestView): AuthOutcome {
  const user = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '')?.[1];
  return user ? { auth: { sub: user } } : { reject: { message: 'Unauthorized' } };
}

const as = (user: string) => ({ authorization: `Bearer ${user}` });

async function initialize(
  s: Surface,
  user: string,
  id = 1,
): Promise<RawResponse & { session?: string; body: string }> {
  const res = await s.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, ...as(user) },
    body: initializeBody('2025-11-25', {}, id),
  });
  const body = await res.text();
  return Object.assign(res, { session: res.header('mcp-session-id'), body });
}

/** A session with its standalone GET stream open: in use, so never evicted. */
async function busySession(s: Surface, user: string): Promise<string> {
  const { session } = await initialize(s, user);
  const get = await s.send({
    method: 'GET',
    path: '/mcp',
    headers: { accept: 'text/event-stream', 'mcp-session-id': session!, ...as(user) },
  });
  expect(get.status).toBe(200);
  streams.push(get);
  return session!;
}

describe('security: sessions are bounded per client, idle ones evicted before anyone is refused (issue #15)', () => {
  it('2,000 initialize from one client: the flood recycles its own idle sessions and every other client still gets one', async () => {
    const server = createServer({ name: 'caps', version: '1', providers: [Tools] });
    surface = await serve(server, {
      authenticate: byToken,
      maxSessions: 10,
      maxSessionsPerClient: 5,
    });
    const alice = (await initialize(surface, 'alice')).session!;
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 20; batch++) {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => initialize(surface!, 'mallory', batch * 100 + i)),
      );
      for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, 2000]]));
    expect(surface.sessionCount()).toBeLessThanOrEqual(6);
    // The victim's idle session was not taken, and newcomers are served.
    const ping = await sessionPost(surface, alice, { id: 2, method: 'ping' }, as('alice'));
    expect(ping.status).toBe(200);
    await ping.text();
    for (const user of ['bob', 'carol', 'dave'])
      expect((await initialize(surface, user)).status).toBe(200);
  });

  it('a client whose sessions all have open streams is refused with 429, Retry-After and the limit named; the whole server at its cap with 503; both audited', async () => {
    const entries: AuditEntry[] = [];
    const server = createServer({
      name: 'caps',
      version: '1',
      providers: [Tools],
      audit: { sink: (e) => entries.push(e) },
    });
    surface = await serve(server, {
      authenticate: byToken,
      maxSessions: 4,
      maxSessionsPerClient: 2,
    });
    await busySession(surface, 'mallory');
    await busySession(surface, 'mallory');
    const refused = await initialize(surface, 'mallory', 7);
    expect(refused.status).toBe(429);
    expect(Number(refused.header('retry-after'))).toBeGreaterThan(0);
    const error = JSON.parse(refused.body);
    expect(error.id).toBe(7);
    expect(error.error.message).toMatch(/maxSessionsPerClient = 2.*raise maxSessionsPerClient/);

    await busySession(surface, 'alice');
    await busySession(surface, 'bob');
    const full = await initialize(surface, 'carol');
    expect(full.status).toBe(503);
    expect(Number(full.header('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(full.body).error.message).toMatch(/maxSessions = 4.*raise maxSessions/);

    expect(entries.map((e) => [e.tool, e.limit, e.identity, e.outcome])).toEqual([
      ['initialize', 'maxSessionsPerClient', 'mallory', 'refused'],
      ['initialize', 'maxSessions', 'carol', 'refused'],
    ]);
  });

  it('an HTTP+SSE client at its session cap is refused with 429 and Retry-After', async () => {
    surface = await serve(createServer({ name: 'caps', version: '1', providers: [Tools] }), {
      authenticate: byToken,
      maxSessionsPerClient: 2,
    });
    for (let i = 0; i < 2; i++) {
      const open = await surface.send({
        method: 'GET',
        path: '/sse',
        headers: { accept: 'text/event-stream', ...as('mallory') },
      });
      expect(open.status).toBe(200);
      streams.push(open);
    }
    const third = await surface.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream', ...as('mallory') },
    });
    expect(third.status).toBe(429);
    expect(third.header('retry-after')).toBeDefined();
    expect(await third.text()).toContain('maxSessionsPerClient');
    const other = await surface.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream', ...as('alice') },
    });
    expect(other.status).toBe(200);
    streams.push(other);
  });
});
