import { afterEach, describe, expect, it } from 'vitest';
import { aborted, gates, httpFixture } from './support/http-fixture.ts';
import type { Surface } from './support/http-surfaces.ts';
import {
  envelope,
  modernPost,
  openSession,
  serve,
  sessionPost,
  sleep,
  until,
} from './support/security-http.ts';

let surface: Surface | undefined;
afterEach(async () => {
  await surface?.close();
  surface = undefined;
});

const SUB = 'io.modelcontextprotocol/subscriptionId';

describe('security: cancellation belongs to the requester (issue #15)', () => {
  it("2026-07-28 HTTP: client B's notifications/cancelled with a small integer id does not kill client A's call or listen stream", async () => {
    const server = httpFixture();
    surface = await serve(server);
    for (let round = 0; round < 10; round++) {
      const key = `victim-${round}`;
      // Client A: a call in flight (its progress turns the answer into a stream) and a listen stream.
      const call = await modernPost(surface, {
        id: 1,
        method: 'tools/call',
        params: { name: 'wait', arguments: { key }, _meta: envelope({ progressToken: 'p' }) },
      });
      expect(JSON.parse((await call.nextEvent())!.data).method).toBe('notifications/progress');
      const listen = await modernPost(surface, {
        id: 2,
        method: 'subscriptions/listen',
        params: { _meta: envelope(), notifications: { toolsListChanged: true } },
      });
      expect(JSON.parse((await listen.nextEvent())!.data).method).toBe(
        'notifications/subscriptions/acknowledged',
      );

      // Client B guesses the small integer ids.
      for (const requestId of [0, 1, 2, 3]) {
        const cancel = await modernPost(surface, {
          method: 'notifications/cancelled',
          params: { requestId, reason: 'B says so', _meta: envelope() },
        });
        // The spec: a notification the server accepts gets 202 with no body; this one changes nothing.
        expect(cancel.status).toBe(202);
        expect(await cancel.text()).toBe('');
      }
      await sleep(10);
      expect(aborted.has(key)).toBe(false);

      // A's listen stream still delivers, A's call still answers with its result.
      if (round % 2 === 0) server.tools.disable('echo');
      else server.tools.enable('echo');
      const changed = JSON.parse((await listen.nextEvent())!.data);
      expect(changed).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUB]: 2 } },
      });
      gates.get(key)!();
      const answer = JSON.parse((await call.nextEvent())!.data);
      expect(answer.id).toBe(1);
      expect(answer.result.content[0].text).toBe(`released ${key}`);
      listen.abort();
    }
  });

  it("2026-07-28 HTTP: closing the response stream still cancels the requester's own call", async () => {
    surface = await serve(httpFixture());
    const key = 'own-close';
    const controller = new AbortController();
    const call = await modernPost(
      surface,
      {
        id: 1,
        method: 'tools/call',
        params: { name: 'wait', arguments: { key }, _meta: envelope({ progressToken: 'p' }) },
      },
      {},
      controller.signal,
    );
    await call.nextEvent();
    controller.abort();
    await until(() => aborted.has(key));
    expect(aborted.has(key)).toBe(true);
  });

  it("legacy HTTP: a session's notifications/cancelled reaches only that session's own request", async () => {
    surface = await serve(httpFixture());
    const a = (await openSession(surface)).session!;
    const b = (await openSession(surface)).session!;
    const keyA = 'legacy-a';
    const keyB = 'legacy-b';
    const callA = sessionPost(surface, a, {
      id: 5,
      method: 'tools/call',
      params: { name: 'wait', arguments: { key: keyA } },
    });
    const callB = sessionPost(surface, b, {
      id: 5,
      method: 'tools/call',
      params: { name: 'wait', arguments: { key: keyB } },
    });
    await until(() => gates.has(keyA) && gates.has(keyB));
    const cancel = await sessionPost(surface, b, {
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'B stops its own' },
    });
    expect(cancel.status).toBe(202);
    await until(() => aborted.has(keyB));
    expect(aborted.has(keyB)).toBe(true);
    expect(aborted.has(keyA)).toBe(false);
    gates.get(keyA)!();
    expect(await (await callA).text()).toContain(`released ${keyA}`);
    await (await callB).text();
  });
});
