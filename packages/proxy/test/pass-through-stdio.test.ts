import { fileURLToPath } from 'node:url';
import { createProxy, type ProxyServer } from '@mcp-fw/proxy';
import { createInMemoryPair } from '@mcp-fw/core/transport';
import { afterEach, describe, expect, it } from 'vitest';
import { quiet } from './support/upstream.ts';

// The pass-through (src/pass-through.ts) against a real stdio upstream process per caller that
// writes raw text (support/raw-upstream.mjs), driven by raw callers, so the tests see the exact
// frames the proxy writes: what an upstream gets wrong still names it, callers' ids stay apart,
// a cancel reaches the upstream, and nothing answers a cancelled call.

const UPSTREAM = fileURLToPath(new URL('./support/raw-upstream.mjs', import.meta.url));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function proxied(timeoutMs?: number): Promise<ProxyServer> {
  const proxy = await createProxy(
    { command: process.execPath, args: [UPSTREAM] },
    { server: { logger: quiet }, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  );
  closers.push(() => proxy.close());
  return proxy;
}

/** A caller speaking raw frames to the proxy: what it sends, and the frames it got, as text. */
async function rawCaller(proxy: ProxyServer) {
  const [ours, theirs] = createInMemoryPair();
  const frames: string[] = [];
  ours.start({
    frame: (text) => void frames.push(text),
    oversize: () => {},
    ended: () => {},
    abandoned: () => {},
  });
  proxy.connect(theirs);
  closers.push(() => ours.close());
  const send = (message: object) => ours.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
  /** The frame answering `id`, as text, once it came. */
  const answerTo = async (id: string | number): Promise<string> => {
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
    let found: string | undefined;
    await expect
      .poll(() => (found = frames.find((f) => f.startsWith(head))), { timeout: 10_000 })
      .toBeDefined();
    return found as string;
  };
  const call = async (id: string | number, name: string) => {
    send({ id, method: 'tools/call', params: { name, arguments: {} } });
    return answerTo(id);
  };
  send({
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });
  await answerTo('init');
  send({ method: 'notifications/initialized' });
  // The first call opens the caller's upstream session (the full path); the next ones pass.
  await call('open', 'echo');
  return { send, call, answerTo, frames };
}

describe('the pass-through with a raw stdio upstream', () => {
  it('an upstream answer with a wrong id type / garbage result still names the upstream on the pass-through', async () => {
    const proxy = await proxied(5000);
    const caller = await rawCaller(proxy);
    const before = proxy.passedThrough;
    const garbage = JSON.parse(await caller.call(1, 'garbage'));
    expect(garbage.result.isError).toBe(true);
    expect(garbage.result.content[0].text).toMatch(
      /^Upstream "upstream" answered tools\/call "garbage" with an invalid result \("content" is not an array\); the proxy did not pass it on$/,
    );
    // An answer naming the request by a string id answers nothing: the caller's deadline holds.
    const wrongId = JSON.parse(await caller.call(2, 'wrong-id'));
    expect(wrongId.result.isError).toBe(true);
    expect(wrongId.result.content[0].text).toBe(
      `Upstream "upstream" did not answer tools/call "wrong-id" within 5000 ms (the proxy's timeoutMs for it)`,
    );
    expect(proxy.passedThrough - before).toBe(2);
  });

  it("two callers' interleaved ids stay apart on the pass-through", async () => {
    const proxy = await proxied();
    const a = await rawCaller(proxy);
    const b = await rawCaller(proxy);
    const before = proxy.passedThrough;
    // Both callers use the same ids, sent interleaved before any answer comes back.
    for (let id = 1; id <= 10; id++) {
      a.send({ id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
      b.send({ id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    }
    const pidOf = (frame: string) => /caf(?:é|\\u00e9) (\d+) #(\d+)/.exec(frame)?.slice(1);
    const seen = { a: [] as string[][], b: [] as string[][] };
    for (let id = 1; id <= 10; id++) {
      seen.a.push(pidOf(await a.answerTo(id)) ?? []);
      seen.b.push(pidOf(await b.answerTo(id)) ?? []);
    }
    // Each caller hears only its own upstream process, which counted only its calls, in order.
    const [pidA] = seen.a[0];
    const [pidB] = seen.b[0];
    expect(pidA).not.toBe(pidB);
    expect(seen.a).toEqual(Array.from({ length: 10 }, (_, i) => [pidA, String(i + 2)]));
    expect(seen.b).toEqual(Array.from({ length: 10 }, (_, i) => [pidB, String(i + 2)]));
    expect(a.frames.filter((f) => f.includes(pidB))).toEqual([]);
    expect(proxy.passedThrough - before).toBe(20);
  });

  it('cancelling a passed-through call cancels it upstream', async () => {
    const proxy = await proxied();
    const caller = await rawCaller(proxy);
    const before = proxy.passedThrough;
    caller.send({ id: 'stuck', method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await expect.poll(() => proxy.passedThrough - before).toBe(1);
    caller.send({
      method: 'notifications/cancelled',
      params: { requestId: 'stuck', reason: 'changed my mind' },
    });
    // The upstream heard the cancel of its request (the proxy's own id for it, a number).
    await expect
      .poll(
        async () =>
          JSON.parse(
            JSON.parse(await caller.call(`ask-${Date.now()}`, 'cancelled')).result.content[0].text,
          ),
        {
          timeout: 10_000,
        },
      )
      .toEqual([expect.any(Number)]);
    // And the cancelled call is never answered.
    expect(caller.frames.some((f) => f.includes('"id":"stuck"'))).toBe(false);
  });
});
