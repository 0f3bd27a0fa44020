// Issue #15 part 5: every handler has a deadline (5 minutes unless set), and a handler that
// blocks the event loop past its deadline — which cannot be pre-empted in-process — is reported
// and answered with the timeout error, never with its late result.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  Prompt,
  Resource,
  Tool,
  type AuditEntry,
  type Context,
  type Logger,
  type McpFwServer,
  type Provider,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import type { ChannelSink } from '../src/jsonrpc/index.ts';
import { createInMemoryPair } from '../src/transports/in-memory.ts';
import { nodeSurface, type Surface } from './support/http-surfaces.ts';
import { modernHeaders } from './support/security-http.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import { checkServerLines } from './support/wire-log.ts';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const Empty = z.object({});

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** When the last spin ended (performance.now()). */
let spunAt = 0;

/**
 * Holds the event loop for `ms` of CPU time (what a CPU-bound synchronous handler does): CPU, not
 * wall time, so that a loaded machine pausing the test does not make it a shorter spin (a
 * handler is reported only if the process used its deadline's worth of CPU).
 */
function spin(ms: number): void {
  const end = cpuMs() + ms;
  while (cpuMs() < end);
  spunAt = performance.now();
}

/**
 * Holds the event loop for `ms` of wall time using no CPU: what the operating system pausing a
 * process on a loaded machine looks like from inside it.
 */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

class Paused {
  @Tool({ description: 'Paused 300 ms in its synchronous part', input: Empty, timeoutMs: 100 })
  paused() {
    pause(300);
    return 'finished';
  }

  @Tool({ description: 'Paused 300 ms under the server-wide deadline', input: Empty })
  pausedDefault() {
    pause(300);
    return 'finished';
  }

  @Tool({ description: 'Awaits, then is paused 300 ms', input: Empty, timeoutMs: 100 })
  async pausedLater() {
    await new Promise((r) => setTimeout(r, 5));
    pause(300);
    return 'finished';
  }

  @Tool({ description: 'Awaits, then is paused, under the server-wide deadline', input: Empty })
  async pausedLaterDefault() {
    await new Promise((r) => setTimeout(r, 5));
    pause(300);
    return 'finished';
  }
}

class Spinners {
  @Tool({ description: 'Spins 300 ms synchronously', input: Empty, timeoutMs: 100 })
  spin() {
    spin(300);
    return 'finished';
  }

  @Tool({ description: 'Spins 300 ms before its first await', input: Empty, timeoutMs: 100 })
  async spinAsync() {
    spin(300);
    await Promise.resolve();
    return 'finished';
  }

  @Tool({ description: 'Awaits, then spins 300 ms', input: Empty, timeoutMs: 100 })
  async spinLater() {
    await new Promise((r) => setTimeout(r, 5));
    spin(300);
    return 'finished';
  }

  @Tool({ description: 'Spins 300 ms under the server-wide deadline', input: Empty })
  spinDefault() {
    spin(300);
    return 'finished';
  }

  @Tool({ description: 'Quick', input: Empty })
  quick() {
    return 'quick';
  }

  @Resource('spin://resource', { description: 'Spins 300 ms', mimeType: 'text/plain' })
  resource() {
    spin(300);
    return 'read';
  }

  @Prompt({ description: 'Spins', input: Empty, timeoutMs: 100 })
  prompt() {
    spin(300);
    return 'rendered';
  }
}

const timedOut = (what: string, ms: number) =>
  `${what} timed out after ${ms} ms (timeoutMs) and was stopped.`;

function recording(providers: Provider[] = [Spinners]) {
  const warnings: string[] = [];
  const audit: AuditEntry[] = [];
  const logger: Logger = { error: () => {}, warn: (m) => warnings.push(m) };
  const server = createServer({
    name: 'spin',
    version: '1.0.0',
    providers,
    logger,
    limits: { timeoutMs: 100 },
    audit: { sink: (e) => audit.push(e) },
  });
  return { server, warnings, audit };
}

const clients: TestClient[] = [];
const surfaces: Surface[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const c of clients.splice(0)) await c.close();
  await Promise.all(surfaces.splice(0).map((s) => s.close()));
});

async function client(server: McpFwServer, protocolVersion: string): Promise<TestClient> {
  const c = await connectTestClient(server, { protocolVersion });
  clients.push(c);
  return c;
}

describe.each([LEGACY, MODERN])('a handler that spins past its deadline (%s)', (version) => {
  it('timeoutMs: 100 on a tool that spins the CPU for 300 ms is answered with the timeout error, not a late success', async () => {
    const { server, warnings, audit } = recording();
    const c = await client(server, version);
    for (const tool of ['spin', 'spinAsync', 'spinLater']) {
      const result = await c.callTool(tool, {});
      expect(result).toMatchObject({
        content: [{ type: 'text', text: timedOut(`Tool ${tool}`, 100) }],
        isError: true,
      });
      // Answered when the handler gave the event loop back, not after some later timer.
      expect(performance.now() - spunAt).toBeLessThan(1_700);
    }
    expect(await c.callTool('quick', {})).toMatchObject({ content: [{ text: 'quick' }] });
    // Each is named on stderr and in the audit log, with how long it held the event loop.
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      /^Tool spin held the event loop past its 100 ms deadline \(timeoutMs\): it ran (29\d|[3-9]\d\d|\d{4,}) ms and its deadline could not fire meanwhile\. A synchronous handler cannot be stopped/,
    );
    expect(warnings[1]).toMatch(/^Tool spinAsync held the event loop past its 100 ms deadline/);
    expect(warnings[2]).toMatch(/^Tool spinLater held the event loop past its 100 ms deadline/);
    expect(audit.map((e) => [e.tool, e.outcome, e.error])).toEqual([
      ['spin', 'timeout', timedOut('Tool spin', 100)],
      ['spinAsync', 'timeout', timedOut('Tool spinAsync', 100)],
      ['spinLater', 'timeout', timedOut('Tool spinLater', 100)],
      ['quick', 'ok', undefined],
    ]);
    for (const entry of audit.slice(0, 3)) expect(entry.blockedMs).toBeGreaterThanOrEqual(290);
    expect(audit[3].blockedMs).toBeUndefined();
    expect(checkServerLines(c.wire, version)).toEqual([]);
  });

  it('the server-wide deadline (limits.timeoutMs) catches a synchronous tool, resource and prompt too', async () => {
    const { server, warnings } = recording();
    const c = await client(server, version);
    expect(await c.callTool('spinDefault', {})).toMatchObject({
      content: [{ text: timedOut('Tool spinDefault', 100) }],
      isError: true,
    });
    await expect(c.readResource('spin://resource')).rejects.toMatchObject({
      code: -32603,
      message: timedOut('Resource spin://resource', 100),
    });
    await expect(c.getPrompt('prompt', {})).rejects.toMatchObject({
      code: -32603,
      message: timedOut('Prompt prompt', 100),
    });
    expect(warnings.map((w) => w.split(' held')[0])).toEqual([
      'Tool spinDefault',
      'Resource spin://resource',
      'Prompt prompt',
    ]);
    expect(checkServerLines(c.wire, version)).toEqual([]);
  });

  it('a pause that is not handler CPU (the process descheduled) times out but is not blamed on the handler', async () => {
    const { server, warnings, audit } = recording([Paused]);
    const c = await client(server, version);
    for (const [tool, ms] of [
      ['paused', 100],
      ['pausedDefault', 100],
      ['pausedLater', 100],
      ['pausedLaterDefault', 100],
    ] as const) {
      // The deadline passed all the same: the late result is still not answered.
      expect(await c.callTool(tool, {})).toMatchObject({
        content: [{ type: 'text', text: timedOut(`Tool ${tool}`, ms) }],
        isError: true,
      });
    }
    expect(warnings).toEqual([]);
    expect(audit.map((e) => [e.tool, e.outcome, e.blockedMs])).toEqual([
      ['paused', 'timeout', undefined],
      ['pausedDefault', 'timeout', undefined],
      ['pausedLater', 'timeout', undefined],
      ['pausedLaterDefault', 'timeout', undefined],
    ]);
  });
});

describe('a spinning tool over HTTP (2026-07-28)', () => {
  it('timeoutMs: 100 on a tool that spins the CPU for 300 ms answers the timeout error over real HTTP', async () => {
    const { server, warnings } = recording();
    const s = await nodeSurface(server);
    surfaces.push(s);
    const res = await s.send({
      method: 'POST',
      path: '/mcp',
      headers: modernHeaders('tools/call', 'spin'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'spin',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const body = JSON.parse(await res.text());
    expect(res.status).toBe(200);
    expect(body.result).toMatchObject({
      content: [{ type: 'text', text: timedOut('Tool spin', 100) }],
      isError: true,
      resultType: 'complete',
    });
    expect(mcpSchema(MODERN).check(body, 'tools/call')).toEqual([]);
    expect(warnings[0]).toMatch(/^Tool spin held the event loop past its 100 ms deadline/);
  });
});

describe('the default deadline', () => {
  class Stuck {
    readonly aborted: unknown[] = [];

    @Tool({ description: 'Never returns', input: Empty })
    stuck(_: object, ctx: Context) {
      ctx.signal.addEventListener('abort', () =>
        this.aborted.push((ctx.signal.reason as Error).message),
      );
      return new Promise<never>(() => {});
    }

    @Tool({ description: 'Never returns; reads its signal only after an await', input: Empty })
    async stuckLater(_: object, ctx: Context) {
      await Promise.resolve();
      ctx.signal.addEventListener('abort', () =>
        this.aborted.push((ctx.signal.reason as Error).message),
      );
      return new Promise<never>(() => {});
    }

    @Tool({
      description: 'Never returns, and opts out of deadlines',
      input: Empty,
      timeoutMs: Number.POSITIVE_INFINITY,
    })
    forever() {
      return new Promise<never>(() => {});
    }
  }

  /** A raw legacy connection (no client-side request timeout), its answers by id. */
  async function rawConnection(server: McpFwServer) {
    const [clientSide, serverSide] = createInMemoryPair();
    server.connect(serverSide);
    const answers = new Map<number, any>();
    clientSide.start({
      frame: (text: string) => void answers.set(JSON.parse(text).id, JSON.parse(text)),
      oversize() {},
      ended() {},
    } as unknown as ChannelSink);
    const send = (message: object) =>
      clientSide.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    send({ method: 'notifications/initialized' });
    return { answers, send };
  }

  it('a tool without timeoutMs that never returns is answered with the timeout after 5 minutes, freeing its request', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    const stuck = new Stuck();
    const { answers, send } = await rawConnection(
      createServer({ name: 'stuck', version: '1.0.0', providers: [stuck] }),
    );
    send({ id: 2, method: 'tools/call', params: { name: 'stuck', arguments: {} } });
    send({ id: 3, method: 'tools/call', params: { name: 'forever', arguments: {} } });
    send({ id: 4, method: 'tools/call', params: { name: 'stuckLater', arguments: {} } });
    await vi.advanceTimersByTimeAsync(299_000);
    expect(answers.has(2)).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(answers.get(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: timedOut('Tool stuck', 300_000) }], isError: true },
    });
    expect(mcpSchema(LEGACY).check(answers.get(2), 'tools/call')).toEqual([]);
    expect(answers.get(4).result.content[0].text).toBe(timedOut('Tool stuckLater', 300_000));
    expect(stuck.aborted).toEqual([
      timedOut('Tool stuck', 300_000),
      timedOut('Tool stuckLater', 300_000),
    ]);
    // timeoutMs: Infinity opts out: still running an hour later.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(answers.has(3)).toBe(false);
  });

  it('limits.timeoutMs: Infinity turns the default off; a timer-sized bound is refused at startup', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        providers: [],
        limits: { timeoutMs: Number.POSITIVE_INFINITY },
      }),
    ).not.toThrow();
    expect(() =>
      createServer({ name: 'x', version: '1', providers: [], limits: { timeoutMs: 2 ** 31 } }),
    ).toThrow(
      'limits: timeoutMs must be a number of milliseconds from 0 to 2147483647, or Infinity for no timeout; got 2147483648.',
    );
  });
});
