import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Engine,
  JsonRpcError,
  REQUEST_TIMEOUT_CODE,
  type Channel,
  type ChannelSink,
  type EngineHandlers,
} from '../src/jsonrpc/index.ts';

/** An engine on a channel the test drives: `answer(id)` delivers a result for that request. */
function engineOnTestChannel(abandoned: unknown[][] = [], overrides: Partial<EngineHandlers> = {}) {
  let sink!: ChannelSink;
  const channel: Channel = { start: (s) => (sink = s), send: () => {}, close: async () => {} };
  const handlers: EngineHandlers = {
    request: () => ({}),
    notification: () => {},
    mapError: (e) => (e instanceof JsonRpcError ? e.toJSON() : { code: -32603, message: 'x' }),
    acceptBatch: () => false,
    outboundAbandoned: (id, reason) => abandoned.push([id, reason]),
    ...overrides,
  };
  const engine = new Engine(channel, handlers);
  const answer = (id: number) =>
    sink.frame(JSON.stringify({ jsonrpc: '2.0', id, result: { n: id } }));
  return { engine, answer };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('outbound request timeouts', () => {
  it("one shared timer serves every pending request's timeout", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const { engine, answer } = engineOnTestChannel();
    // One at a time, then 50 at once: each answered before the next batch.
    for (let id = 0; id < 50; id++) {
      const done = engine.request('m', {}, { timeoutMs: 60_000 });
      answer(id);
      await expect(done).resolves.toEqual({ n: id });
    }
    const many = Array.from({ length: 50 }, () => engine.request('m', {}, { timeoutMs: 60_000 }));
    for (let id = 50; id < 100; id++) answer(id);
    await Promise.all(many);
    // A timer (and a clearTimeout) per request before: 100.
    const engineTimers = setTimeoutSpy.mock.calls.filter(([, ms]) => Number(ms) > 59_000);
    expect(engineTimers).toHaveLength(1);
    expect(engine.outboundPending).toBe(0);
  });

  it('requests with different timeouts each time out on their own, with the typed error and message', async () => {
    const abandoned: unknown[][] = [];
    const { engine, answer } = engineOnTestChannel(abandoned);
    const started = performance.now();
    const settledAt = (p: Promise<unknown>) =>
      p.then(
        () => ({ ok: true, ms: performance.now() - started }),
        (error: unknown) => ({ ok: false, error, ms: performance.now() - started }),
      );
    // The timer is armed for the first (longest) one; later, shorter ones must re-arm it.
    const slow = settledAt(engine.request('slow', {}, { timeoutMs: 400 }));
    const never = settledAt(engine.request('never', {}, { timeoutMs: Infinity }));
    const fast = settledAt(engine.request('fast', {}, { timeoutMs: 30 }));
    const answered = settledAt(engine.request('answered', {}, { timeoutMs: 60 }));
    const medium = settledAt(engine.request('medium', {}, { timeoutMs: 120 }));
    answer(3);
    const f = await fast;
    expect(f).toMatchObject({ ok: false });
    expect(f.ms).toBeGreaterThanOrEqual(29);
    expect(f.ms).toBeLessThan(300);
    expect((f as { error: JsonRpcError }).error).toBeInstanceOf(JsonRpcError);
    expect((f as { error: JsonRpcError }).error).toMatchObject({
      code: REQUEST_TIMEOUT_CODE,
      message: 'Request timed out after 30 ms',
    });
    expect(await answered).toMatchObject({ ok: true });
    const m = await medium;
    expect(m).toMatchObject({
      ok: false,
      error: { code: REQUEST_TIMEOUT_CODE, message: 'Request timed out after 120 ms' },
    });
    expect(m.ms).toBeGreaterThanOrEqual(119);
    const s = await slow;
    expect(s).toMatchObject({
      ok: false,
      error: { code: REQUEST_TIMEOUT_CODE, message: 'Request timed out after 400 ms' },
    });
    expect(s.ms).toBeGreaterThanOrEqual(399);
    expect(abandoned).toEqual([
      [2, 'timeout'],
      [4, 'timeout'],
      [0, 'timeout'],
    ]);
    // The request without a timeout still waits, and takes its answer.
    expect(engine.outboundPending).toBe(1);
    answer(1);
    expect(await never).toMatchObject({ ok: true });
  });

  it('a timed-out request rejects with what timeoutError builds from the request as sent, and outboundAbandoned gets that error', async () => {
    const abandoned: unknown[][] = [];
    const { engine } = engineOnTestChannel([], {
      timeoutError: (method, params, timeoutMs) =>
        new Error(`${method} ${JSON.stringify(params)} after ${timeoutMs}`),
      outboundAbandoned: (id, reason, error) => abandoned.push([id, reason, error]),
    });
    const failure = await engine
      .request('tools/call', { name: 'x' }, { timeoutMs: 10 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('tools/call {"name":"x"} after 10');
    expect(abandoned).toEqual([[0, 'timeout', failure]]);
  });

  it('a late answer to a timed-out request settles nothing', async () => {
    const { engine, answer } = engineOnTestChannel();
    await expect(engine.request('m', {}, { timeoutMs: 10 })).rejects.toMatchObject({
      code: REQUEST_TIMEOUT_CODE,
    });
    answer(0);
    expect(engine.outboundPending).toBe(0);
    // The timer still serves the next request.
    await expect(engine.request('m', {}, { timeoutMs: 10 })).rejects.toMatchObject({
      message: 'Request timed out after 10 ms',
    });
  });
});

describe('outbound request timeouts and the process lifetime (built core)', () => {
  const core = fileURLToPath(new URL('../dist/jsonrpc/index.js', import.meta.url));
  const run = (body: string) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { Engine } from ${JSON.stringify(core)};
let sink;
const engine = new Engine(
  { start: (s) => (sink = s), send: () => {}, close: async () => {} },
  { request: () => ({}), notification: () => {}, mapError: () => ({ code: -1, message: '' }), acceptBatch: () => false },
);
const answer = (id) => sink.frame(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
${body}`,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );

  it('a client with no calls in flight lets node exit', () => {
    const started = performance.now();
    const result = run(`
const first = engine.request('a', {}, { timeoutMs: 60_000 });
answer(0);
await first;
const second = engine.request('b', {}, { timeoutMs: 30_000 });
answer(1);
await second;
console.log('answered');`);
    expect(result.stdout.trim()).toBe('answered');
    expect(result.status).toBe(0);
    // Well before either timeout: nothing holds the loop once nothing is pending.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('a pending request keeps node alive until it times out, also after an earlier one was answered', () => {
    const result = run(`
const first = engine.request('a', {}, { timeoutMs: 60_000 });
answer(0);
await first;
engine.request('b', {}, { timeoutMs: 200 }).catch((e) => console.log(e.message));`);
    expect(result.stdout.trim()).toBe('Request timed out after 200 ms');
    expect(result.status).toBe(0);
  });
});
