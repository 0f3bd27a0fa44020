import { afterEach, describe, expect, it } from 'vitest';
import type { AuthOutcome, HttpRequestView } from '@mcp-fw/core/http';
import { httpFixture } from './support/http-fixture.ts';
import { initializeBody, type Surface, openSession } from './support/http-surfaces.ts';
import { serve, sessionPost } from './support/security-http.ts';

let surface: Surface | undefined;
afterEach(async () => {
  await surface?.close();
  surface = undefined;
});

/** Bearer tokens of two users, as an authentication hook would verify them. */
function tokens(shape: (user: string) => unknown) {
  return (req: HttpRequestView): AuthOutcome => {
    const user = /^Bearer (alice|bob)$/.exec(req.header('authorization') ?? '')?.[1];
    return user ? { auth: shape(user) } : { reject: { message: 'Unauthorized' } };
  };
}

const ALICE = { authorization: 'Bearer alice' };
const BOB = { authorization: 'Bearer bob' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function openAs(s: Surface, who: Record<string, string>): Promise<string> {
  const session = await openSession(s, '2025-11-25', { elicitation: { form: {} } }, who);
  (await sessionPost(s, session, { method: 'notifications/initialized' }, who)).text();
  return session;
}

/** Status and body, for comparing an answer with the unknown-session one. */
async function seen(
  res: Promise<{ status: number; text(): Promise<string> }>,
): Promise<{ status: number; body: string }> {
  const r = await res;
  return { status: r.status, body: await r.text() };
}

describe('security: a legacy session serves only its principal (issue #15)', () => {
  it("with an authenticate hook: user B with a valid token and A's session id cannot call tools in A's session, read A's stream, delete it or answer A's elicitation", async () => {
    surface = await serve(httpFixture(), { authenticate: tokens((user) => ({ sub: user })) });
    const s = surface;
    const a = await openAs(s, ALICE);
    const whoami = { id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } };

    // What anyone gets for a session that does not exist: B must get exactly that.
    const unknownPost = await seen(sessionPost(s, UNKNOWN, whoami, BOB));
    expect(unknownPost.status).toBe(404);
    expect(await seen(sessionPost(s, a, whoami, BOB))).toEqual(unknownPost);

    const get = (session: string, who: Record<string, string>) =>
      seen(
        s.send({
          method: 'GET',
          path: '/mcp',
          headers: { accept: 'text/event-stream', 'mcp-session-id': session, ...who },
        }),
      );
    const unknownGet = await get(UNKNOWN, BOB);
    expect(unknownGet.status).toBe(404);
    expect(await get(a, BOB)).toEqual(unknownGet);

    const del = (session: string, who: Record<string, string>) =>
      seen(
        s.send({ method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': session, ...who } }),
      );
    const unknownDelete = await del(UNKNOWN, BOB);
    expect(unknownDelete.status).toBe(404);
    expect(await del(a, BOB)).toEqual(unknownDelete);

    // A's session is intact: A's question to A's user can be answered by A only.
    const call = await sessionPost(
      s,
      a,
      { id: 3, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      ALICE,
    );
    let question: { id: number; method: string } | undefined;
    for (let e = await call.nextEvent(); e; e = await call.nextEvent()) {
      if (!e.data) continue;
      question = JSON.parse(e.data);
      break;
    }
    expect(question!.method).toBe('elicitation/create');
    const forged = await seen(
      sessionPost(
        s,
        a,
        { id: question!.id, result: { action: 'accept', content: { name: 'mallory' } } },
        BOB,
      ),
    );
    expect(forged).toEqual(
      await seen(
        sessionPost(
          s,
          UNKNOWN,
          { id: question!.id, result: { action: 'accept', content: { name: 'mallory' } } },
          BOB,
        ),
      ),
    );
    const answered = await sessionPost(
      s,
      a,
      { id: question!.id, result: { action: 'accept', content: { name: 'alice' } } },
      ALICE,
    );
    expect(answered.status).toBe(202);
    let final: any;
    for (let e = await call.nextEvent(); e; e = await call.nextEvent())
      if (e.data) final = JSON.parse(e.data);
    expect(final.result.content[0].text).toBe('hi alice');

    const mine = JSON.parse(await (await sessionPost(s, a, whoami, ALICE)).text());
    expect(mine.result.content[0].text).toBe('{"sub":"alice"}');
    expect((await del(a, ALICE)).status).toBe(200);
  });

  it("with an authenticate hook: user B with a valid token and A's HTTP+SSE session id cannot post into it", async () => {
    surface = await serve(httpFixture(), { authenticate: tokens((user) => ({ sub: user })) });
    const s = surface;
    const stream = await s.send({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream', ...ALICE },
    });
    const endpoint = (await stream.nextEvent())!.data;
    const post = (path: string, who: Record<string, string>) =>
      seen(
        s.send({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', ...who },
          body: initializeBody('2024-11-05'),
        }),
      );
    const unknown = await post(`/messages?sessionId=${UNKNOWN}`, BOB);
    expect(unknown.status).toBe(404);
    expect(await post(endpoint, BOB)).toEqual(unknown);
    expect((await post(endpoint, ALICE)).status).toBe(202);
    const answer = JSON.parse((await stream.nextEvent())!.data);
    expect(answer.result.protocolVersion).toBe('2024-11-05');
    stream.abort();
  });

  it('binds the session even when the authentication result has no recognised name field', async () => {
    surface = await serve(httpFixture(), { authenticate: tokens((user) => ({ user })) });
    const a = await openAs(surface, ALICE);
    const ping = { id: 9, method: 'ping' };
    expect((await seen(sessionPost(surface, a, ping, BOB))).status).toBe(404);
    expect((await seen(sessionPost(surface, a, ping, ALICE))).status).toBe(200);
  });
});

describe('security: resumption stays inside the session (issue #15)', () => {
  it("with an authenticate hook: user B with a valid token and A's session id cannot read A's stream through B's own session's Last-Event-ID", async () => {
    const server = httpFixture();
    surface = await serve(server, { authenticate: tokens((user) => ({ sub: user })) });
    const s = surface;
    const a = await openAs(s, ALICE);
    const b = await openAs(s, BOB);
    server.tools.disable('echo'); // A's session records a list_changed for its standalone stream
    const resume = (session: string, lastEventId: string, who: Record<string, string>) =>
      s.send({
        method: 'GET',
        path: '/mcp',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'last-event-id': lastEventId,
          ...who,
        },
      });
    const mine = await resume(a, `${a}_get:x`, ALICE);
    expect(JSON.parse((await mine.nextEvent())!.data).method).toBe(
      'notifications/tools/list_changed',
    );
    mine.abort();
    const theirs = await resume(b, `${a}_get:x`, BOB);
    expect(theirs.status).toBe(200);
    const first = await Promise.race([
      theirs.nextEvent(),
      new Promise((r) => setTimeout(() => r('nothing'), 100)),
    ]);
    expect(first).toBe('nothing');
    theirs.abort();
  });
});
