import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  JsonRpcError,
  Prompt,
  Resource,
  Tool,
  Use,
  UserError,
  type Context,
  type Hook,
  type Middleware,
  type MiddlewareContext,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const KEY = 'm'.repeat(32);

/** A middleware that logs `<label> in` / `<label> out` around `next()`. */
function tracer(log: string[], label: string): Hook<any> {
  return async (ctx, next) => {
    log.push(`${label} in ${ctx.method}`);
    try {
      return await next();
    } finally {
      log.push(`${label} out ${ctx.method}`);
    }
  };
}

const log: string[] = [];
let runs = 0;

@Use(tracer(log, 'class-a'), tracer(log, 'class-b'))
class Shop {
  @Use(tracer(log, 'member-a'))
  @Use({ callTool: (ctx, next) => (log.push(`member-b ${ctx.member?.name}`), next()) })
  @Tool({
    description: 'Echoes',
    input: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true },
    scopes: ['shop:read'],
    _meta: { 'example.com/tier': 'gold' },
  })
  echo({ text }: { text: string }) {
    log.push('handler');
    return text;
  }

  @Tool({ description: 'Fails', input: z.object({}) })
  fail(): string {
    throw new UserError('the shop is closed');
  }

  @Tool({ description: 'Asks twice', input: z.object({}) })
  async twice(_: object, ctx: Context) {
    runs++;
    const a = await ctx.elicit('First?', z.object({ a: z.string() }));
    const b = await ctx.elicit('Second?', z.object({ b: z.string() }));
    return `${a.action === 'accept' ? a.content.a : '-'}+${b.action === 'accept' ? b.content.b : '-'}`;
  }

  @Resource('shop://items/{id}', { mimeType: 'text/plain' })
  item({ id }: { id: string }) {
    return `item ${id}`;
  }

  @Prompt({ description: 'Greets', input: z.object({ name: z.string() }) })
  greet({ name }: { name: string }) {
    return `Hello ${name}`;
  }
}

const answers = {
  'elicitation/create': (p: Record<string, unknown>) => ({
    action: 'accept',
    content: p.message === 'First?' ? { a: 'A' } : { b: 'B' },
  }),
};

async function connect(
  middleware: Middleware[],
  version: string,
  more: Parameters<typeof createServer>[0] extends infer T ? Partial<T> : never = {},
): Promise<TestClient> {
  const server = createServer({
    name: 'shop',
    version: '1.0.0',
    providers: [Shop],
    inputRounds: { requestStateKey: KEY },
    middleware,
    ...more,
  });
  return connectTestClient(server, {
    protocolVersion: version,
    capabilities: { elicitation: {} },
    handlers: answers,
  });
}

describe.each([LEGACY, MODERN])('middleware (%s)', (version) => {
  it('runs server middleware outermost, then class, then member, each in the order written', async () => {
    log.length = 0;
    const server = createServer({
      name: 'shop',
      version: '1.0.0',
      providers: [Shop],
      middleware: [tracer(log, 'option')],
    });
    server.use(tracer(log, 'use-1'), {
      request: tracer(log, 'use-2-request'),
      callTool: tracer(log, 'use-2-call'),
    });
    const c = await connectTestClient(server, { protocolVersion: version });
    log.length = 0;
    const result = await c.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(log.filter((line) => !line.includes('notifications/'))).toEqual([
      'option in tools/call',
      'use-1 in tools/call',
      'use-2-request in tools/call',
      'use-2-call in tools/call',
      'class-a in tools/call',
      'class-b in tools/call',
      'member-a in tools/call',
      'member-b echo',
      'handler',
      'member-a out tools/call',
      'class-b out tools/call',
      'class-a out tools/call',
      'use-2-call out tools/call',
      'use-2-request out tools/call',
      'use-1 out tools/call',
      'option out tools/call',
    ]);
    // A list has no member: only server middleware, and only the hooks that apply.
    log.length = 0;
    await c.listTools();
    expect(log).toEqual([
      'option in tools/list',
      'use-1 in tools/list',
      'use-2-request in tools/list',
      'use-2-request out tools/list',
      'use-1 out tools/list',
      'option out tools/list',
    ]);
    await c.close();
  });

  it('shows the member: name, annotations, scopes, _meta; and the request: era, revision, id', async () => {
    const seen: MiddlewareContext[] = [];
    const c = await connect([{ callTool: (ctx, next) => (seen.push(ctx), next()) }], version);
    await c.callTool('echo', { text: 'x' });
    const ctx = seen[0];
    expect(ctx.member).toEqual({
      kind: 'tool',
      name: 'echo',
      uri: undefined,
      title: undefined,
      description: 'Echoes',
      annotations: { readOnlyHint: true },
      scopes: ['shop:read'],
      _meta: { 'example.com/tier': 'gold' },
    });
    expect(ctx.arguments).toEqual({ text: 'x' });
    expect(ctx.protocolVersion).toBe(version);
    expect(ctx.era).toBe(version === MODERN ? 'modern' : 'legacy');
    expect(ctx.requestId).toBeDefined();
    expect(ctx.transport).toBe('stdio');
    expect(ctx.replay).toBe(false);
    await c.close();
  });

  it('replaces arguments before the handler; they are validated after', async () => {
    const c = await connect(
      [
        {
          callTool(ctx, next) {
            const args = ctx.arguments as { text: string };
            ctx.arguments = { text: args.text === 'bad' ? 42 : args.text.toUpperCase() };
            return next();
          },
        },
      ],
      version,
    );
    expect((await c.callTool('echo', { text: 'hi' })).content[0].text).toBe('HI');
    const bad = await c.callTool('echo', { text: 'bad' }).catch((e: unknown) => e);
    // Invalid arguments: an isError result from 2025-11-25 on, named by field.
    expect(JSON.stringify(bad)).toContain('text');
    await c.close();
  });

  it('short-circuits with a result: the handler does not run', async () => {
    log.length = 0;
    const c = await connect(
      [
        {
          callTool: (ctx, next) =>
            ctx.member?.name === 'echo' ? { content: [{ type: 'text', text: 'cached' }] } : next(),
        },
      ],
      version,
    );
    expect((await c.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'cached' },
    ]);
    expect(log).not.toContain('handler');
    await c.close();
  });

  it('maps what a middleware throws as if the handler had thrown it', async () => {
    const refuse: Middleware = {
      callTool(ctx) {
        if (ctx.member?.name === 'echo') throw new UserError('not today');
        throw new JsonRpcError(-32602, 'Invalid params: refused by policy');
      },
      readResource() {
        throw new UserError('no reading');
      },
    };
    const c = await connect([refuse], version);
    expect(await c.callTool('echo', { text: 'hi' })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'not today' }],
    });
    await expect(c.callTool('fail', {})).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: refused by policy',
    });
    await expect(c.readResource('shop://items/1')).rejects.toMatchObject({
      code: -32603,
      message: 'no reading',
    });
    await c.close();
  });

  it('masks an unexpected middleware failure like a handler failure (maskInternalErrors)', async () => {
    const c = await connect(
      [
        (ctx, next) => {
          if (ctx.method === 'tools/call') throw new Error('db password=hunter2');
          return next();
        },
      ],
      version,
      { maskInternalErrors: true, logger: { error() {}, warn() {}, info() {} } as never },
    );
    const result = await c.callTool('echo', { text: 'hi' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Internal error \(ref [0-9a-f]{12}\)/);
    await c.close();
  });

  it('observes outcome and timing of every kind of request, with typed hooks', async () => {
    const outcomes: string[] = [];
    // A failing handler rejects next() with what it threw; the tool's isError result is made
    // from it after the middleware.
    const observe: Middleware = async (ctx, next) => {
      const started = performance.now();
      let outcome = 'ok';
      try {
        return await next();
      } catch (error) {
        outcome = `threw ${(error as Error).message}`;
        throw error;
      } finally {
        const ms = performance.now() - started;
        if (ctx.requestId !== undefined && !/initialize|discover/.test(ctx.method))
          outcomes.push(
            `${ctx.method} ${ms >= 0 ? outcome : '?'} ${ctx.member?.name ?? ''}`.trim(),
          );
      }
    };
    const c = await connect(
      [
        observe,
        {
          listTools: async (_ctx, next) => {
            const list = await next();
            return {
              ...list,
              tools: (list.tools as { name: string }[]).filter((t) => t.name !== 'fail'),
            };
          },
          getPrompt: async (ctx, next) => {
            ctx.arguments = { name: 'Grace' };
            return next();
          },
          readResource: async (ctx, next) => {
            expect(ctx.arguments).toEqual({ id: '7' });
            expect(ctx.member).toMatchObject({ kind: 'template', uri: 'shop://items/{id}' });
            return next();
          },
        },
      ],
      version,
    );
    const tools = await c.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['echo', 'twice']);
    expect((await c.getPrompt('greet', { name: 'Ada' })).messages[0].content.text).toBe(
      'Hello Grace',
    );
    expect((await c.readResource('shop://items/7')).contents[0].text).toBe('item 7');
    expect(await c.callTool('fail', {})).toMatchObject({ isError: true });
    expect(outcomes).toEqual([
      'tools/list ok',
      'prompts/get ok greet',
      'resources/read ok item',
      'tools/call threw the shop is closed fail',
    ]);
    await c.close();
  });

  it('runs once per logical call across input rounds (the waiting handler is resumed)', async () => {
    const calls: string[] = [];
    runs = 0;
    const c = await connect(
      [
        {
          async callTool(ctx, next) {
            calls.push(`in ${ctx.member?.name} replay=${ctx.replay}`);
            const result = await next();
            calls.push(`out ${(result.content[0] as { text: string }).text}`);
            return result;
          },
        },
      ],
      version,
    );
    expect((await c.callTool('twice', {})).content[0].text).toBe('A+B');
    expect(calls).toEqual(['in twice replay=false', 'out A+B']);
    expect(runs).toBe(1);
    if (version === MODERN) {
      // Three rounds went over the wire, one logical call through the middleware.
      const interim = c.wire
        .filter((w) => w.dir === 's2c')
        .filter((w) => w.line.includes('"input_required"'));
      expect(interim).toHaveLength(2);
    }
    await c.close();
  });

  it('sees the notifications the client sends', async () => {
    const notes: string[] = [];
    const c = await connect(
      [
        {
          notification: (ctx, next) => {
            notes.push(ctx.method);
            return next();
          },
        },
      ],
      version,
    );
    c.notify('notifications/roots/list_changed');
    await c.listTools();
    expect(notes).toContain('notifications/roots/list_changed');
    if (version === LEGACY) expect(notes).toContain('notifications/initialized');
    await c.close();
  });
});

describe('middleware and 2026-07-28 replays', () => {
  it('a call replayed on another instance runs the chain there again, marked replay', async () => {
    const seen: string[] = [];
    const mw: Middleware = {
      callTool: (ctx, next) => (seen.push(`${ctx.member?.name} replay=${ctx.replay}`), next()),
    };
    const meta = { [V]: MODERN, [CAPS]: { elicitation: {} } };
    const first = await connect([mw], MODERN);
    const round1 = await first.rawRequest('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: meta,
    });
    expect(round1.resultType).toBe('input_required');
    const second = await connect([mw], MODERN);
    const round2 = await second.rawRequest('tools/call', {
      name: 'twice',
      arguments: {},
      _meta: meta,
      inputResponses: { input_1: { action: 'accept', content: { a: 'A' } } },
      requestState: round1.requestState,
    });
    expect(round2.resultType).toBe('input_required');
    expect(seen).toEqual(['twice replay=false', 'twice replay=true']);
    await first.close();
    await second.close();
  });
});

describe('middleware and a forged requestState', () => {
  it('sees the retry refused with -32602 before any member runs', async () => {
    const seen: string[] = [];
    const c = await connect(
      [
        async (ctx, next) => {
          try {
            return await next();
          } catch (error) {
            seen.push(`${ctx.method} ${(error as { code?: number }).code}`);
            throw error;
          }
        },
      ],
      MODERN,
    );
    const meta = { [V]: MODERN, [CAPS]: { elicitation: {} } };
    const round1 = await c.rawRequest('tools/call', { name: 'twice', arguments: {}, _meta: meta });
    await expect(
      c.rawRequest('tools/call', {
        name: 'twice',
        arguments: {},
        _meta: meta,
        inputResponses: { input_1: { action: 'accept', content: { a: 'A' } } },
        requestState: `${round1.requestState}x`,
      }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(seen).toEqual(['tools/call -32602']);
    await c.close();
  });
});

describe('middleware: bad input', () => {
  it('refuses an object with an unknown hook at startup, naming it', () => {
    expect(() =>
      createServer({
        name: 's',
        version: '1',
        providers: [Shop],
        middleware: [{ callTools: () => undefined } as never],
      }),
    ).toThrow(/unknown hook "callTools"/);
  });

  it('refuses a bad @Use hook when the server is created, not at the first call', () => {
    class Bad {
      @Use({ callTools: () => undefined } as never)
      @Tool({ description: 'x', input: z.object({}) })
      x() {
        return 'x';
      }
    }
    expect(() => createServer({ name: 's', version: '1', providers: [Bad] })).toThrow(
      /unknown hook "callTools"/,
    );
  });

  it('refuses middleware that is not an array, naming the fix', () => {
    expect(() =>
      createServer({
        name: 's',
        version: '1',
        providers: [Shop],
        middleware: tracer([], 'x') as never,
      }),
    ).toThrow(/middleware must be an array, got function. Write middleware: \[myMiddleware\]/);
  });

  it('a middleware that answers nothing without calling next() is an error, not a hang', async () => {
    const c = await connect([{ listTools: () => undefined }], LEGACY);
    await expect(c.listTools()).rejects.toMatchObject({ code: -32603 });
    await c.close();
  });
});

describe('@Use under standard (TC39) decorators', () => {
  it('records class and member middleware from the TC39 call shapes', async () => {
    const order: string[] = [];
    const mark =
      (label: string): Middleware =>
      (_ctx, next) => {
        order.push(label);
        return next();
      };
    class Plain {
      ping() {
        return 'pong';
      }
    }
    const metadata: Record<PropertyKey, unknown> = {};
    // What a TC39 compiler passes: (value, context) with `kind` and a per-class metadata object.
    Tool({ description: 'Pings', input: z.object({}) })(Plain.prototype.ping, {
      kind: 'method',
      name: 'ping',
      static: false,
      metadata,
    } as never);
    Use(mark('member'))(Plain.prototype.ping, {
      kind: 'method',
      name: 'ping',
      static: false,
      metadata,
    } as never);
    Use(mark('class'))(Plain, { kind: 'class', name: 'Plain', metadata } as never);
    Object.defineProperty(Plain, Symbol.metadata, { value: metadata });
    const c = await connectTestClient(
      createServer({ name: 's', version: '1', providers: [Plain] }),
    );
    expect((await c.callTool('ping', {})).content[0].text).toBe('pong');
    expect(order).toEqual(['class', 'member']);
    await c.close();
  });
});

describe('middleware that switches itself off', () => {
  it('is skipped while enabled() is false, and runs once it turns true', async () => {
    let on = false;
    const seen: string[] = [];
    const c = await connect(
      [
        {
          enabled: () => on,
          callTool: (ctx, next) => {
            seen.push(ctx.member?.name ?? '');
            return next();
          },
        },
      ],
      LEGACY,
    );
    await c.callTool('echo', { text: 'a' });
    expect(seen).toEqual([]);
    on = true;
    await c.callTool('echo', { text: 'b' });
    expect(seen).toEqual(['echo']);
    await c.close();
  });
});

describe('middleware and refusals before a member is reached', () => {
  it('sees a call of an unknown tool, refused with -32602', async () => {
    const seen: string[] = [];
    const c = await connect(
      [
        {
          async callTool(ctx, next) {
            try {
              return await next();
            } catch (error) {
              seen.push(
                `${ctx.params?.name} ${ctx.member === undefined} ${(error as { code?: number }).code}`,
              );
              throw error;
            }
          },
        },
      ],
      LEGACY,
    );
    await expect(c.callTool('nope', {})).rejects.toMatchObject({ code: -32602 });
    expect(seen).toEqual(['nope true -32602']);
    await c.close();
  });
});
