import { connect } from '@mcp-fw/client';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { quiet, upstreamServer } from './support/upstream.ts';

// What belongs to one downstream client stays with it: its upstream session, its questions,
// its log messages, its token.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('sessions', () => {
  it('each downstream client gets its own upstream session', async () => {
    const proxy = await createProxy(upstreamServer(), {
      connect: { protocolVersion: '2025-06-18' },
      server: { logger: quiet },
    });
    closers.push(() => proxy.close());
    const a = await connect(proxy, { protocolVersion: '2025-11-25' });
    const b = await connect(proxy, { protocolVersion: '2025-11-25' });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    expect((await a.callTool('count', {})).content[0].text).toBe('1');
    expect((await a.callTool('count', {})).content[0].text).toBe('2');
    expect((await b.callTool('count', {})).content[0].text).toBe('1');
    expect(proxy.health()[0].sessions).toBe(2);
  });

  it('nothing of one client reaches another: questions and log messages go to the caller only', async () => {
    const proxy = await createProxy(upstreamServer(), {
      connect: { protocolVersion: '2025-11-25' },
      server: { logger: quiet },
    });
    closers.push(() => proxy.close());
    const heard = { a: [] as string[], b: [] as string[] };
    const client = (who: 'a' | 'b') =>
      connect(proxy, {
        protocolVersion: '2025-11-25',
        logLevel: 'info',
        onLog: (m) => heard[who].push(`log ${String(m.data)}`),
        handlers: {
          elicitation: (r) => {
            heard[who].push(`asked ${r.message}`);
            return { action: 'accept', content: { name: who } };
          },
        },
      });
    const a = await client('a');
    const b = await client('b');
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const [greetA, chatB] = await Promise.all([
      a.callTool('greet', {}),
      b.callTool('chatty', { n: 2 }),
    ]);
    expect(greetA.content[0].text).toBe('Hello a');
    expect(chatB.content[0].text).toBe('logged');
    await vi.waitFor(() => expect(heard.b).toHaveLength(2));
    expect(heard).toEqual({
      a: ['asked Your name?'],
      b: ['log message 0', 'log message 1'],
    });
  });

  it('the upstream’s list changes reach the downstream client', async () => {
    const upstream = upstreamServer();
    const proxy = await createProxy(upstream, { server: { logger: quiet } });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2026-07-28' });
    closers.push(() => client.close());
    const changed = vi.fn();
    const listening = await client.listen({ tools: true }, changed);
    closers.push(() => listening.close());
    class Later {
      @Tool({ description: 'Added later', input: z.object({}) })
      later() {
        return 'late';
      }
    }
    upstream.add(Later);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled());
    await vi.waitFor(async () =>
      expect((await client.listTools()).map((t) => t.name)).toContain('later'),
    );
    expect((await client.callTool('later', {})).content[0].text).toBe('late');
  });
});

describe('credentials', () => {
  it("a caller's token is never forwarded to an upstream not configured for it", async () => {
    const seen = { fwd: [] as (string | undefined)[], own: [] as (string | undefined)[] };
    const whoServer = (who: 'fwd' | 'own') => {
      class Who {
        @Tool({ description: 'Says hello', input: z.object({}) })
        hello() {
          return `hello from ${who}`;
        }
      }
      const server = createServer({ name: who, version: '1', providers: [Who], logger: quiet });
      server.use((ctx, next) => {
        seen[who].push(ctx.header('authorization'));
        return next();
      });
      return server;
    };
    const fwd = await serveHttp(whoServer('fwd'), { port: 0 });
    const own = await serveHttp(whoServer('own'), { port: 0 });
    closers.push(
      () => fwd.close(),
      () => own.close(),
    );
    const proxy = await createProxy(
      {
        mcpServers: {
          fwd: { url: fwd.url },
          own: { url: own.url, headers: { authorization: 'Bearer proxy-own' } },
        },
      },
      { upstreams: { fwd: { credentials: 'forward' } }, server: { logger: quiet } },
    );
    closers.push(() => proxy.close());
    const front = await serveHttp(proxy, { port: 0 });
    closers.push(() => front.close());
    const client = await connect(front.url, {
      headers: { authorization: 'Bearer caller-secret' },
    });
    closers.push(() => client.close());
    expect((await client.callTool('fwd_hello', {})).content[0].text).toBe('hello from fwd');
    expect((await client.callTool('own_hello', {})).content[0].text).toBe('hello from own');
    expect(seen.fwd).toContain('Bearer caller-secret');
    expect(seen.own.length).toBeGreaterThan(0);
    expect(new Set(seen.own)).toEqual(new Set(['Bearer proxy-own']));
  });
});

describe('resource subscriptions', () => {
  it('an upstream resource update reaches a downstream subscriber', async () => {
    const upstream = upstreamServer();
    const proxy = await createProxy(upstream, {
      connect: { protocolVersion: '2025-11-25' },
      server: { logger: quiet },
    });
    closers.push(() => proxy.close());
    const client = await connect(proxy, { protocolVersion: '2026-07-28' });
    closers.push(() => client.close());
    const changes: unknown[] = [];
    const listening = await client.listen({ resourceUris: ['memo://today'] }, (change) =>
      changes.push(change.params.uri),
    );
    closers.push(() => listening.close());
    await vi.waitFor(
      () => {
        upstream.resources.updated('memo://today');
        expect(changes).toContain('memo://today');
      },
      { timeout: 5000, interval: 200 },
    );
  });
});
