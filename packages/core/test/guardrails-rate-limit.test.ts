import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  MemoryRateLimitStore,
  Tool,
  type Context,
  type RateLimitKey,
  type RateLimitStore,
} from '@mcp-fw/core';
import { createHttpHandler } from '@mcp-fw/core/http';
import {
  CLIENT_MODES,
  listen,
  officialClient,
  textOf,
  withoutMeta,
} from './support/guard-clients.ts';

let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const Empty = z.object({});
const Answer = z.object({ v: z.string() });

class Limited {
  @Tool({ description: 'Answers pong', input: Empty, rateLimit: { max: 2, perMs: 60_000 } })
  ping() {
    return 'pong';
  }

  @Tool({ description: 'Asks twice', input: Empty, rateLimit: { max: 1, perMs: 60_000 } })
  async askTwice(_: object, ctx: Context) {
    const a = await ctx.elicit('First?', Answer);
    const b = await ctx.elicit('Second?', Answer);
    return `${a.content?.v}${b.content?.v}`;
  }

  @Tool({
    description: 'Says who calls',
    input: Empty,
    rateLimit: { max: 1, perMs: 60_000, key: 'identity' },
  })
  whoami(_: object, ctx: Context) {
    return String((ctx.auth as { sub: string }).sub);
  }

  @Tool({ description: 'Not limited', input: Empty, rateLimit: false })
  free() {
    return 'free';
  }

  @Tool({ description: 'Uses the server default', input: Empty })
  plain() {
    return 'plain';
  }
}

function server() {
  return createServer({
    name: 'limited',
    version: '1.0.0',
    providers: [Limited],
    limits: { rateLimit: { max: 1, perMs: 30_000 } },
  });
}

const refused = (
  tool: string,
  max: number,
  window: string,
  retry: string,
  per = ' per session',
) => ({
  content: [
    {
      type: 'text',
      text: `Rate limit exceeded: tool ${tool} allows ${max} call${max === 1 ? '' : 's'} per ${window}${per} (rateLimit). Retry after ${retry}.`,
    },
  ],
  isError: true,
});

describe.each(CLIENT_MODES)('rate limits through the official client (%s, %s)', (mode) => {
  it('refuses the call over the limit with an isError result that says when to retry', async () => {
    const http = await listen(server());
    cleanups.push(() => http.close());
    const { client, close } = await officialClient(http.url, mode);
    cleanups.push(close);
    const call = async (name: string) =>
      withoutMeta(await client.callTool({ name, arguments: {} }));
    expect(textOf(await call('ping'))).toBe('pong');
    expect(textOf(await call('ping'))).toBe('pong');
    expect(await call('ping')).toEqual(refused('ping', 2, '60 s', '60 s'));
    // The server default (1 per 30 s) applies to tools without their own; `false` opts out.
    expect(textOf(await call('plain'))).toBe('plain');
    expect(await call('plain')).toEqual(refused('plain', 1, '30 s', '30 s'));
    for (let i = 0; i < 3; i++) expect(textOf(await call('free'))).toBe('free');
  });

  it('counts a call that spans input rounds once', async () => {
    const http = await listen(server());
    cleanups.push(() => http.close());
    let n = 0;
    const { client, close } = await officialClient(http.url, mode, {
      onElicit: () => ({ action: 'accept', content: { v: String(++n) } }),
    });
    cleanups.push(close);
    // Under 2026-07-28 this call is three requests (two input_required rounds and the answer).
    expect(textOf(await client.callTool({ name: 'askTwice', arguments: {} }))).toBe('12');
    expect(withoutMeta(await client.callTool({ name: 'askTwice', arguments: {} }))).toEqual(
      refused('askTwice', 1, '60 s', '60 s'),
    );
    expect(n).toBe(2);
  });

  it('counts per authenticated identity across sessions', async () => {
    const http = await listen(server(), {
      authenticate: (req) => ({
        auth: { sub: (req.header('authorization') ?? '').replace('Bearer ', '') },
      }),
    });
    cleanups.push(() => http.close());
    const connect = async (who: string) => {
      const { client, close } = await officialClient(http.url, mode, {
        headers: { authorization: `Bearer ${who}` },
      });
      cleanups.push(close);
      return client;
    };
    const [alice1, alice2, bob] = [
      await connect('alice'),
      await connect('alice'),
      await connect('bob'),
    ];
    expect(textOf(await alice1.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
    expect(withoutMeta(await alice2.callTool({ name: 'whoami', arguments: {} }))).toEqual(
      refused('whoami', 1, '60 s', '60 s', ' per identity'),
    );
    expect(textOf(await bob.callTool({ name: 'whoami', arguments: {} }))).toBe('bob');
  });

  it('answers 429 with Retry-After when the whole endpoint is over its limit', async () => {
    const http = await listen(server(), { rateLimit: { max: 6, perMs: 60_000 } });
    cleanups.push(() => http.close());
    const { client, responses, close } = await officialClient(http.url, mode);
    cleanups.push(close);
    let failure: any;
    for (let i = 0; i < 6 && !failure; i++) {
      await client.callTool({ name: 'free', arguments: {} }).catch((error) => (failure = error));
    }
    expect(failure?.message).toBe(
      'Error POSTing to endpoint: {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Too Many Requests: retry after 60 s"}}',
    );
    expect(responses.length).toBe(7);
    expect(responses.at(-1)).toEqual({ status: 429, retryAfter: '60' });
    expect(responses.slice(0, -1).every((r) => r.status < 300)).toBe(true);
  });
});

describe('endpoint rate limit (fetch handler)', () => {
  it('counts each client address on its own', async () => {
    const mcp = createHttpHandler(server(), { rateLimit: { max: 2, perMs: 60_000 } });
    cleanups.push(() => mcp.close());
    const get = (remoteAddress: string) =>
      mcp.fetch(
        new Request('http://localhost/mcp', {
          method: 'GET',
          headers: { accept: 'text/event-stream' },
        }),
        { remoteAddress },
      );
    const statuses = async (address: string, n: number) => {
      const seen: (number | string | null)[] = [];
      for (let i = 0; i < n; i++) {
        const response = await get(address);
        seen.push(response.status, response.headers.get('retry-after'));
        await response.body?.cancel();
      }
      return seen;
    };
    // GET without a session is 405 — it still counts against the endpoint's limit.
    expect(await statuses('10.0.0.1', 3)).toEqual([405, null, 405, null, 429, '60']);
    expect(await statuses('10.0.0.2', 1)).toEqual([405, null]);
  });

  // One shape, one key vocabulary, one store: the endpoint's limit is a tool's RateLimit, its
  // counters live in the server's limits.rateLimitStore, and `identity` is limits.identify's.
  async function endpointStatuses(
    key: RateLimitKey,
    requests: { address: string; token?: string }[],
  ): Promise<{ statuses: number[]; keys: string[] }> {
    const keys: string[] = [];
    const memory = new MemoryRateLimitStore();
    const store: RateLimitStore = {
      hit: (counter, max, perMs) => {
        keys.push(counter);
        return memory.hit(counter, max, perMs);
      },
    };
    const limited = createServer({
      name: 'limited',
      version: '1.0.0',
      providers: [Limited],
      limits: { rateLimitStore: store, identify: (auth) => (auth as { user?: string }).user },
    });
    const mcp = createHttpHandler(limited, {
      rateLimit: { max: 1, perMs: 60_000, key },
      authenticate: (req) => ({ auth: { user: req.header('x-user') } }),
    });
    cleanups.push(() => mcp.close());
    const statuses: number[] = [];
    for (const { address, token } of requests) {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (token) headers['x-user'] = token;
      const response = await mcp.fetch(
        new Request('http://localhost/mcp', { method: 'GET', headers }),
        { remoteAddress: address },
      );
      statuses.push(response.status);
      await response.body?.cancel();
    }
    return { statuses, keys };
  }

  it('takes the same key words as a tool, counting in limits.rateLimitStore', async () => {
    const twoAddresses = [{ address: '10.0.0.1' }, { address: '10.0.0.2' }];
    expect((await endpointStatuses('address', twoAddresses)).statuses).toEqual([405, 405]);
    // A request reaches the endpoint before any session: `session` counts per address.
    expect((await endpointStatuses('session', twoAddresses)).statuses).toEqual([405, 405]);
    const global = await endpointStatuses('global', twoAddresses);
    expect(global.statuses).toEqual([405, 429]);
    expect(global.keys).toEqual(['\0endpoint', '\0endpoint']);
    const sameUser = [
      { address: '10.0.0.1', token: 'ada' },
      { address: '10.0.0.2', token: 'ada' },
      { address: '10.0.0.2', token: 'bob' },
    ];
    const identity = await endpointStatuses('identity', sameUser);
    expect(identity.statuses).toEqual([405, 429, 405]);
    expect(identity.keys).toEqual(['\0endpoint\0ada', '\0endpoint\0ada', '\0endpoint\0bob']);
  });
});
