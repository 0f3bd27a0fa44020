import { connect, RequestTimeoutError } from '@mcp-fw/client';
import { connect as connectSocket, createServer as createNetServer } from 'node:net';
import { serveHttp } from '@mcp-fw/core/node';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onFreePort, portTaken } from '../../../test-support/ports.ts';
import { quiet, upstreamServer, type Seen } from './support/upstream.ts';

// Upstreams that fail: down, gone mid-call, slow, lying, flooding. The proxy answers every call
// with an error naming the upstream, never hangs, and recovers when the upstream does.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * Runs `scenario` with a port nobody listens on now, which it binds later (the upstream the
 * proxy was pointed at comes back there). When another test file took the port meanwhile, the
 * bind fails with EADDRINUSE: what the scenario started is closed and it runs again on a fresh
 * port. Any other failure stands.
 */
function onUpstreamPort(scenario: (port: number) => Promise<void>): Promise<void> {
  return onFreePort(async (port) => {
    try {
      await scenario(port);
    } catch (error) {
      if (portTaken(error)) for (const close of closers.splice(0).reverse()) await close();
      throw error;
    }
  });
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectSocket(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function textOf(result: { content: readonly { text?: string }[] }): string {
  return result.content.map((c) => c.text).join('');
}

/**
 * The proxy pointed at `port`, where no upstream listens yet: each call fails naming the
 * upstream, until an upstream starts there.
 */
async function downAtStart(port: number): Promise<void> {
  const warnings: string[] = [];
  const proxy = await createProxy(`http://127.0.0.1:${port}/mcp`, {
    retryMs: 100,
    server: { logger: quiet },
    onWarning: (w) => warnings.push(w),
  });
  closers.push(() => proxy.close());
  // Not down: another test file may have taken the port since the probe (then try again).
  if (proxy.health()[0].state !== 'down' && (await listening(port)))
    throw Object.assign(new Error(`port ${port} was taken`), { code: 'EADDRINUSE' });
  expect(proxy.health()[0]).toMatchObject({ state: 'down', name: 'upstream' });
  const client = await connect(proxy, { protocolVersion: '2025-11-25' });
  closers.push(() => client.close());
  for (let i = 0; i < 2; i++) {
    const refused = await client
      .callTool('add', { a: 1, b: 2 })
      .then(textOf, (e: Error) => e.message);
    expect(refused).toMatch(/Upstream "upstream" \(http:\/\/127\.0\.0\.1:\d+\/mcp\) is down/);
  }
  expect(warnings.join('\n')).toMatch(/upstream "upstream" is down/);
  const back = await serveHttp(upstreamServer(), { port });
  closers.push(() => back.close());
  await vi.waitFor(() => expect(proxy.health()[0].state).toBe('up'), { timeout: 5000 });
  await vi.waitFor(() => expect(proxy.tools.names()).toContain('add'), { timeout: 5000 });
  await vi.waitFor(async () =>
    expect(textOf(await client.callTool('add', { a: 1, b: 2 }))).toContain('3'),
  );
}

describe('upstream faults', () => {
  it('an upstream down at start fails each call naming it, and serves once it is back', async () => {
    await onUpstreamPort(downAtStart);
  });

  it('an upstream that goes down mid-call fails that call naming it, and service resumes when it returns', async () => {
    await onUpstreamPort(async (port) => {
      const first = await serveHttp(upstreamServer(), { port });
      const proxy = await createProxy(first.url, {
        retryMs: 100,
        server: { logger: quiet },
        onWarning: () => {},
      });
      closers.push(() => proxy.close());
      const client = await connect(proxy, { protocolVersion: '2026-07-28' });
      closers.push(() => client.close());
      expect(textOf(await client.callTool('add', { a: 1, b: 1 }))).toContain('2');
      const pending = client.callTool('slow', { ms: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.close();
      const failed = await pending.then(textOf, (e: Error) => e.message);
      expect(failed).toMatch(/Upstream "upstream"/);
      const again = await serveHttp(upstreamServer(), { port });
      closers.push(() => again.close());
      await vi.waitFor(
        async () => expect(textOf(await client.callTool('add', { a: 2, b: 2 }))).toContain('4'),
        { timeout: 5000 },
      );
    });
  });

  it("a slow upstream does not outlast the caller's deadline, and the upstream call is cancelled", async () => {
    const seen: Seen = { aborted: [], calls: 0 };
    const proxy = await createProxy(upstreamServer(seen), { server: { logger: quiet } });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const started = performance.now();
    await expect(client.callTool('slow', { ms: 10_000 }, { timeoutMs: 300 })).rejects.toThrow(
      RequestTimeoutError,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    await vi.waitFor(() => expect(seen.aborted).toHaveLength(1));
  });

  it("the proxy's own timeoutMs for an upstream fails a slow call naming the upstream", async () => {
    const proxy = await createProxy(upstreamServer(), {
      timeoutMs: 300,
      server: { logger: quiet },
    });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2026-07-28' });
    closers.push(() => client.close());
    const result = await client.callTool('slow', { ms: 10_000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /Upstream "upstream" did not answer tools\/call "slow" within 300 ms/,
    );
  });

  it('an invalid upstream result is refused with an error naming the upstream', async () => {
    const upstream = upstreamServer();
    upstream.use({ callTool: async () => ({ content: 'not a list' }) as never });
    const proxy = await createProxy(upstream, { server: { logger: quiet } });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(() => client.close());
    const result = await client.callTool('add', { a: 1, b: 2 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Upstream "upstream" answered tools/call "add" with an invalid result ("content" is not an array); the proxy did not pass it on',
    );
  });

  it('a flood of upstream notifications is bounded: list changes coalesce, log messages are capped', async () => {
    const upstream = upstreamServer();
    const warnings: string[] = [];
    const proxy = await createProxy(upstream, {
      maxLogsPerSecond: 20,
      server: { logger: quiet },
      onWarning: (w) => warnings.push(w),
    });
    closers.push(() => proxy.close());
    const readsBefore = proxy.mirror('upstream')?.reads ?? 0;
    for (let i = 0; i < 2000; i++) upstream.tools.changed();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reads = (proxy.mirror('upstream')?.reads ?? 0) - readsBefore;
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(3);
    const logs: unknown[] = [];
    const client = await connect(proxy, {
      protocolVersion: '2025-11-25',
      logLevel: 'info',
      onLog: (m) => logs.push(m.data),
    });
    closers.push(() => client.close());
    expect(textOf(await client.callTool('chatty', { n: 1000 }))).toBe('logged');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs).toHaveLength(20);
  });
});

describe('the port an upstream comes back on', () => {
  it('an upstream port another test file listens on before the proxy starts runs the scenario again on a fresh port', async () => {
    const tried: number[] = [];
    await onUpstreamPort(async (port) => {
      tried.push(port);
      if (tried.length === 1) {
        // Another test file's server on the port the probe found free.
        const squatter = await serveHttp(upstreamServer(), { port });
        closers.push(() => squatter.close());
      }
      await downAtStart(port);
    });
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
  });

  it('a port another test file takes before the upstream returns runs the scenario again on a fresh port', async () => {
    const tried: number[] = [];
    let closedOnRetry = 0;
    await onUpstreamPort(async (port) => {
      tried.push(port);
      if (tried.length === 1) {
        // What another test file does between the probe and the bind.
        const squatter = createNetServer();
        await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
        closers.push(() => new Promise((resolve) => squatter.close(resolve)));
        closers.push(async () => {
          closedOnRetry++;
        });
      }
      const back = await serveHttp(upstreamServer(), { port });
      closers.push(() => back.close());
    });
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    // The first attempt's resources were closed before the second started.
    expect(closedOnRetry).toBe(1);
  });

  it('a failure other than a taken port is not retried', async () => {
    let runs = 0;
    const failed = await onUpstreamPort(async () => {
      runs++;
      throw new Error('the upstream said no');
    }).catch((e: Error) => e.message);
    expect([failed, runs]).toEqual(['the upstream said no', 1]);
  });
});
