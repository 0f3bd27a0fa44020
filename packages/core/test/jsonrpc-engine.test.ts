import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  Engine,
  JsonRpcError,
  type Channel,
  type ChannelSink,
  type EngineHandlers,
  type FrameRoute,
  type InboundRequest,
} from '../src/jsonrpc/index.ts';

/** A channel driven by the test: frames go in with `deliver`, frames out land in `sent`. */
function testChannel() {
  let sink!: ChannelSink;
  const sent: unknown[] = [];
  const channel: Channel = {
    start: (s) => (sink = s),
    send: (frame) => sent.push(JSON.parse(frame)),
    close: async () => {},
  };
  return { channel, sent, deliver: (frame: string) => sink.frame(frame), end: () => sink.ended() };
}

function handlers(overrides: Partial<EngineHandlers> = {}): EngineHandlers {
  return {
    request: (r) => ({ echoed: r.method }),
    notification: () => {},
    mapError: (e) =>
      e instanceof JsonRpcError ? e.toJSON() : { code: -32603, message: 'Internal error' },
    acceptBatch: () => false,
    ...overrides,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('JSON-RPC engine', () => {
  it('a signal shared by many outbound requests keeps no abort listener once they are answered', async () => {
    const { channel, sent, deliver } = testChannel();
    const engine = new Engine(channel, handlers());
    const signal = new AbortController().signal;
    const answers = [1, 2, 3].map(() => engine.request('ping', {}, { signal }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(3);
    for (const frame of sent as { id: number }[])
      deliver(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: {} }));
    await Promise.all(answers);
    await tick();
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it("hands a final error answer's error to the transport with the frame, so it need not parse it back", async () => {
    let sink!: ChannelSink;
    const routes: { id: unknown; final: boolean; error?: unknown }[] = [];
    const channel: Channel = {
      start: (s) => (sink = s),
      send: (frame, route?: FrameRoute) =>
        routes.push({ id: JSON.parse(frame).id, final: route!.final, error: route!.error }),
      close: async () => {},
    };
    new Engine(
      channel,
      handlers({
        request: (r) => {
          if (r.method === 'ok') return { fine: true };
          const error = new JsonRpcError(-32601, `Method not found: ${r.method}`);
          if (r.method === 'later') return Promise.reject(error);
          throw error;
        },
      }),
    );
    for (const [id, method] of [
      [1, 'now'],
      [2, 'later'],
      [3, 'ok'],
    ])
      sink.frame(`{"jsonrpc":"2.0","id":${id},"method":"${method}"}`, `origin-${id}`);
    await tick();
    expect(routes).toEqual([
      { id: 1, final: true, error: { code: -32601, message: 'Method not found: now' } },
      { id: 3, final: true, error: undefined },
      { id: 2, final: true, error: { code: -32601, message: 'Method not found: later' } },
    ]);
  });

  it('answers an error whose data cannot be serialised without the data, and keeps serving', async () => {
    const t = testChannel();
    const nested = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let data: unknown = nested;
    new Engine(
      t.channel,
      handlers({
        request: (r) => {
          if (r.method === 'ok') return { fine: true };
          const error = new JsonRpcError(-32602, 'Invalid params: bad value', data);
          if (r.method === 'later') return Promise.reject(error);
          throw error;
        },
      }),
    );
    t.deliver('{"jsonrpc":"2.0","id":1,"method":"now"}');
    data = cyclic;
    t.deliver('{"jsonrpc":"2.0","id":2,"method":"later"}');
    t.deliver('{"jsonrpc":"2.0","id":3,"method":"ok"}');
    await tick();
    expect(t.sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params: bad value' } },
      { jsonrpc: '2.0', id: 3, result: { fine: true } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: bad value' } },
    ]);
  });

  it('correlates responses to its own requests by id, results and errors alike', async () => {
    const t = testChannel();
    const engine = new Engine(t.channel, handlers());
    const first = engine.request('a', { x: 1 });
    const second = engine.request('b', undefined);
    expect(t.sent).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'a', params: { x: 1 } },
      { jsonrpc: '2.0', id: 1, method: 'b' },
    ]);
    t.deliver('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope","data":{"k":1}}}');
    t.deliver('{"jsonrpc":"2.0","id":0,"result":{"ok":true}}');
    await expect(first).resolves.toEqual({ ok: true });
    await expect(second).rejects.toMatchObject({ code: -32601, message: 'nope', data: { k: 1 } });
    // A response nobody waits for is dropped without an answer.
    t.deliver('{"jsonrpc":"2.0","id":99,"result":{}}');
    await tick();
    expect(t.sent).toHaveLength(2);
  });

  it('times out an outbound request with -32001 and reports it as abandoned', async () => {
    const t = testChannel();
    const abandoned: unknown[] = [];
    const engine = new Engine(
      t.channel,
      handlers({ outboundAbandoned: (id, reason) => abandoned.push([id, reason]) }),
    );
    await expect(engine.request('slow', {}, { timeoutMs: 20 })).rejects.toMatchObject({
      code: -32001,
    });
    expect(abandoned).toEqual([[0, 'timeout']]);
    // A late answer after the timeout is ignored.
    t.deliver('{"jsonrpc":"2.0","id":0,"result":{}}');
    await tick();
    expect(t.sent).toHaveLength(1);
  });

  it('abandons an outbound request when its signal aborts', async () => {
    const t = testChannel();
    const abandoned: unknown[] = [];
    const engine = new Engine(
      t.channel,
      handlers({ outboundAbandoned: (id) => abandoned.push(id) }),
    );
    const controller = new AbortController();
    const pending = engine.request('x', {}, { signal: controller.signal });
    controller.abort('user gave up');
    await expect(pending).rejects.toBe('user gave up');
    expect(abandoned).toEqual([0]);
  });

  it('never answers notifications, even when their handler throws', async () => {
    const t = testChannel();
    const seen: string[] = [];
    new Engine(
      t.channel,
      handlers({
        notification: (method) => {
          seen.push(method);
          throw new Error('ignored');
        },
        mapError: () => ({ code: -32603, message: 'x' }),
      }),
    );
    t.deliver('{"jsonrpc":"2.0","method":"notifications/anything","params":{}}');
    await tick();
    expect(seen).toEqual(['notifications/anything']);
    expect(t.sent).toEqual([]);
  });

  it('aborts the signal of a cancelled request and sends no response for it', async () => {
    const t = testChannel();
    let signal: AbortSignal | undefined;
    const engine = new Engine(
      t.channel,
      handlers({
        request: (r) =>
          new Promise((resolve) => {
            signal = r.signal;
            r.signal.addEventListener('abort', () => resolve('late result'));
          }),
      }),
    );
    t.deliver('{"jsonrpc":"2.0","id":"c1","method":"work"}');
    expect(engine.inFlight).toBe(1);
    engine.cancel('c1', 'client cancelled');
    await tick();
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('client cancelled');
    expect(t.sent).toEqual([]);
    expect(engine.inFlight).toBe(0);
  });

  it('waits for in-flight requests on close, up to the grace period', async () => {
    const t = testChannel();
    const engine = new Engine(
      t.channel,
      handlers({
        request: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 30)),
      }),
    );
    t.deliver('{"jsonrpc":"2.0","id":7,"method":"slow"}');
    await engine.close(2000);
    expect(t.sent).toEqual([{ jsonrpc: '2.0', id: 7, result: { done: true } }]);
  });

  it('answers a batch with an array when batches are accepted, and with -32600 otherwise', async () => {
    const on = testChannel();
    new Engine(on.channel, handlers({ acceptBatch: () => true }));
    on.deliver(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"b"}]',
    );
    await tick();
    expect(on.sent).toEqual([
      [
        { jsonrpc: '2.0', id: 1, result: { echoed: 'a' } },
        { jsonrpc: '2.0', id: 2, result: { echoed: 'b' } },
      ],
    ]);
    const off = testChannel();
    new Engine(off.channel, handlers());
    off.deliver('[{"jsonrpc":"2.0","id":1,"method":"a"}]');
    expect(off.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request: batches are not supported by the negotiated protocol revision',
        },
      },
    ]);
  });

  it('maps a result that cannot be serialised through mapError instead of crashing', async () => {
    const t = testChannel();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    new Engine(t.channel, handlers({ request: () => circular }));
    t.deliver('{"jsonrpc":"2.0","id":3,"method":"x"}');
    await tick();
    expect(t.sent).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } },
    ]);
  });
  it('a cancel for an id the peer reused reaches the request still running once the later one was answered', async () => {
    const t = testChannel();
    const requests: InboundRequest[] = [];
    const finish: (() => void)[] = [];
    const engine = new Engine(
      t.channel,
      handlers({
        request: (r) => {
          requests.push(r);
          return new Promise((resolve) => finish.push(() => resolve('done')));
        },
      }),
    );
    t.deliver('{"jsonrpc":"2.0","id":7,"method":"first"}');
    t.deliver('{"jsonrpc":"2.0","id":7,"method":"second"}');
    expect(engine.inFlight).toBe(2);
    finish[1]();
    await tick();
    expect(engine.inFlight).toBe(1);
    engine.cancel(7, 'client cancelled');
    expect(requests[0].aborted).toBe(true);
    expect(requests[1].aborted).toBe(false);
    finish[0]();
    await tick();
    expect(engine.inFlight).toBe(0);
    expect(t.sent).toEqual([{ jsonrpc: '2.0', id: 7, result: 'done' }]);
  });

  it('only the integer ids this side gave its requests settle them: the same digits as a string do not', async () => {
    const t = testChannel();
    const engine = new Engine(t.channel, handlers());
    const answer = engine.request('ping', {});
    const { id } = t.sent[0] as { id: number };
    expect(typeof id).toBe('number');
    t.deliver(JSON.stringify({ jsonrpc: '2.0', id: String(id), result: { wrong: true } }));
    t.deliver(JSON.stringify({ jsonrpc: '2.0', id: id + 0.5, result: { wrong: true } }));
    expect(engine.outboundPending).toBe(1);
    t.deliver(JSON.stringify({ jsonrpc: '2.0', id, result: { right: true } }));
    await expect(answer).resolves.toEqual({ right: true });
    expect(engine.outboundPending).toBe(0);
  });
});
