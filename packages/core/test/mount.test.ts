import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  namespaced,
  Prompt,
  Resource,
  StartupError,
  Tool,
  Use,
  type Context,
  type McpFwServer,
  type Middleware,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { checkServerLines } from './support/wire-log.ts';
import { JSON_AND_SSE, SURFACES, openSession } from './support/http-surfaces.ts';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ERAS = [LEGACY, MODERN] as const;
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

const log: string[] = [];
const trace =
  (label: string): Middleware =>
  (ctx, next) => {
    log.push(`${label} ${ctx.member?.name ?? ctx.method}`);
    return next();
  };

class Forecasts {
  @Tool({
    description: 'The forecast for a city',
    input: z.object({ city: z.string(), units: z.enum(['metric', 'imperial']).default('metric') }),
  })
  get_forecast({ city, units }: { city: string; units: string }) {
    return `${city}: 21 ${units === 'metric' ? 'C' : 'F'}`;
  }

  @Use(trace('member'))
  @Tool({ description: 'Traced', input: z.object({}) })
  traced() {
    return 'traced';
  }

  @Tool({
    description: 'Limited to one call',
    input: z.object({}),
    rateLimit: { max: 1, perMs: 60_000 },
  })
  once() {
    return 'once';
  }

  @Tool({ description: 'Needs a scope', input: z.object({}), scopes: ['weather:admin'] })
  admin() {
    return 'admin';
  }

  @Tool({ description: 'Asks for the city', input: z.object({}) })
  async ask(_: object, ctx: Context) {
    const answer = await ctx.elicit('Which city?', z.object({ city: z.string() }));
    return answer.action === 'accept' ? `asked: ${answer.content.city}` : answer.action;
  }

  @Tool({ description: 'A long job', input: z.object({ n: z.number() }), task: 'optional' })
  async job({ n }: { n: number }) {
    return `job ${n * 2}`;
  }

  @Resource('weather://stations', { mimeType: 'text/plain', description: 'Stations' })
  stations() {
    return 'Paris, Oslo';
  }

  @Prompt({ description: 'Asks about the weather', input: z.object({ city: z.string() }) })
  outlook({ city }: { city: string }) {
    return `What is the weather in ${city}?`;
  }
}

class Notes {
  @Tool({ description: 'Searches notes', input: z.object({ q: z.string() }) })
  search({ q }: { q: string }) {
    return `notes about ${q}`;
  }
}

class Alerts {
  @Tool({ description: 'Weather alerts', input: z.object({}) })
  alerts() {
    return 'none';
  }
}

function servers(options: { separator?: string } = {}) {
  const weather = createServer({ name: 'weather', version: '1.0.0', providers: [Forecasts] });
  const app = createServer({
    name: 'app',
    version: '1.0.0',
    providers: [Notes],
    listed: (_auth, member) => member.scopes.length === 0,
  });
  app.mount(weather, { namespace: 'weather', ...options });
  return { weather, app };
}

async function client(server: McpFwServer, era: string): Promise<TestClient> {
  return connectTestClient(server, {
    protocolVersion: era,
    capabilities: { elicitation: {} },
    handlers: { 'elicitation/create': () => ({ action: 'accept', content: { city: 'Oslo' } }) },
  });
}

const names = async (c: TestClient) => (await c.listTools()).tools.map((t) => t.name);
const textOf = (r: { content: { text?: string }[] }) => r.content[0]?.text;
const valid = (c: TestClient, era: string) => expect(checkServerLines(c.wire, era)).toEqual([]);

describe('namespaced()', () => {
  it('joins namespace, separator and name, and refuses what no client can call', () => {
    expect(namespaced('get_forecast', 'weather')).toBe('weather_get_forecast');
    expect(namespaced('get_forecast', 'weather', '.')).toBe('weather.get_forecast');
    expect(() => namespaced('x', 'my weather')).toThrow(/Invalid namespace "my weather"/);
    expect(() => namespaced('x'.repeat(128), 'weather')).toThrow(/not a valid tool or prompt name/);
  });
});

describe.each(ERAS)('mount, %s', (era) => {
  it("serves the child's tools and prompts namespaced, resources under their own URIs", async () => {
    const { app } = servers();
    const c = await client(app, era);
    expect(await names(c)).toEqual([
      'search',
      'weather_get_forecast',
      'weather_traced',
      'weather_once',
      'weather_ask',
      'weather_job',
    ]);
    expect(textOf(await c.callTool('weather_get_forecast', { city: 'Paris' }))).toBe('Paris: 21 C');
    expect(await c.getPrompt('weather_outlook', { city: 'Oslo' })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the weather in Oslo?' } }],
    });
    expect((await c.readResource('weather://stations')).contents[0].text).toBe('Paris, Oslo');
    valid(c, era);
  });

  it('the separator is configurable', async () => {
    const { app } = servers({ separator: '.' });
    const c = await client(app, era);
    expect(await names(c)).toContain('weather.get_forecast');
    expect(textOf(await c.callTool('weather.get_forecast', { city: 'Oslo' }))).toBe('Oslo: 21 C');
  });

  it("members added to the child later appear in the parent, and the parent's clients are told", async () => {
    const { weather, app } = servers();
    const c = await client(app, era);
    const listening =
      era === MODERN
        ? c.rawRequest('subscriptions/listen', {
            _meta: { [V]: MODERN, [CAPS]: {} },
            notifications: {
              toolsListChanged: true,
              resourceSubscriptions: ['weather://stations'],
            },
          })
        : undefined;
    listening?.catch(() => {});
    if (era === LEGACY) await c.request('resources/subscribe', { uri: 'weather://stations' });
    await c.callTool('search', { q: 'sync' });
    weather.add(new Alerts());
    weather.tools.disable('once');
    weather.resources.updated('weather://stations');
    await c.callTool('search', { q: 'sync' });
    const seen = c.notifications.map((n) => n.method);
    expect(seen.filter((m) => m === 'notifications/tools/list_changed')).toHaveLength(2);
    expect(seen).toContain('notifications/resources/updated');
    const now = await names(c);
    expect(now).toContain('weather_alerts');
    expect(now).not.toContain('weather_once');
    expect(textOf(await c.callTool('weather_alerts', {}))).toBe('none');
    app.endSubscriptions();
    await listening;
    valid(c, era);
  });

  it("the child's middleware runs around its members through the mount", async () => {
    const { weather, app } = servers();
    weather.use(trace('child'));
    app.use(trace('parent'));
    const c = await client(app, era);
    log.length = 0;
    await c.callTool('weather_traced', {});
    expect(log).toEqual(['parent weather_traced', 'child weather_traced', 'member weather_traced']);
    log.length = 0;
    await c.callTool('search', { q: 'x' });
    expect(log.some((line) => line.startsWith('child'))).toBe(false);
  });

  it("the child's middleware is flushed when the parent flushes", async () => {
    const { weather, app } = servers();
    const flushed: string[] = [];
    weather.use({ callTool: (_ctx, next) => next(), flush: () => void flushed.push('child') });
    app.use({ callTool: (_ctx, next) => next(), flush: () => void flushed.push('parent') });
    await app.flush();
    expect(flushed.sort()).toEqual(['child', 'parent']);
  });

  it("the child's guardrails (a member's rate limit) hold through the mount", async () => {
    const { app } = servers();
    const c = await client(app, era);
    expect((await c.callTool('weather_once', {})).isError).toBeFalsy();
    const second = await c.callTool('weather_once', {}).catch((error: Error) => error);
    const said = second instanceof Error ? second.message : JSON.stringify(second);
    expect(said).toMatch(/rate limit/i);
  });

  it("the child's scopes travel with its members", async () => {
    const { app } = servers();
    const c = await client(app, era);
    expect(await names(c)).not.toContain('weather_admin');
    expect(app.registry.tool('weather_admin')?.scopes).toEqual(['weather:admin']);
  });

  it('ctx.elicit in a mounted tool works (an input round)', async () => {
    const { app } = servers();
    const c = await client(app, era);
    expect(textOf(await c.callTool('weather_ask', {}))).toBe('asked: Oslo');
    valid(c, era);
  });

  it('a mounted tool runs as a task', async () => {
    const { app } = servers();
    const c = await client(app, era);
    const task = await c.callToolAsTask('weather_job', { n: 21 });
    expect(task.status).toBe('completed');
    expect(textOf(task.result!)).toBe('job 42');
  });
});

describe("the child's scopes are enforced through the mount over HTTP", () => {
  const [, make] = SURFACES[0];
  const envelope = { [V]: MODERN, [CAPS]: {} };
  const call = (headers: Record<string, string>, params: Record<string, unknown>) => ({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params }),
  });

  it.each(ERAS)('a caller without the scope is refused the mounted tool (403), %s', async (era) => {
    const { app } = servers();
    const seen: unknown[] = [];
    const surface = await make(app, {
      authenticate: () => ({ auth: { scopes: [] as string[] } }),
      authorize: (auth, access) => {
        seen.push(access);
        const held = (auth as { scopes: string[] }).scopes;
        return access.scopes.every((s) => held.includes(s))
          ? undefined
          : { status: 403, message: `Forbidden: ${access.name} needs ${access.scopes.join(' ')}` };
      },
    });
    try {
      const headers: Record<string, string> =
        era === MODERN
          ? {
              'mcp-protocol-version': MODERN,
              'mcp-method': 'tools/call',
              'mcp-name': 'weather_admin',
            }
          : {
              'mcp-protocol-version': LEGACY,
              'mcp-session-id': await openSession(surface),
            };
      const params = {
        name: 'weather_admin',
        arguments: {},
        ...(era === MODERN ? { _meta: envelope } : {}),
      };
      const refused = await surface.send(call(headers, params));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('Forbidden: weather_admin needs weather:admin');
      expect(seen).toContainEqual(
        expect.objectContaining({ kind: 'tool', name: 'weather_admin', scopes: ['weather:admin'] }),
      );
    } finally {
      await surface.close();
    }
  });
});

describe('mount: nesting and the child itself', () => {
  it("a grandchild's new member reaches the grandparent's clients, and the child's own transforms travel", async () => {
    const leaf = createServer({ name: 'leaf', version: '1', providers: [Notes] });
    leaf.transform('search', { name: 'find', args: { q: { name: 'query' } } });
    const middle = createServer({ name: 'middle', version: '1' }).mount(leaf, {
      namespace: 'leaf',
    });
    const top = createServer({ name: 'top', version: '1' }).mount(middle, { namespace: 'mid' });
    const c = await client(top, LEGACY);
    expect(await names(c)).toEqual(['mid_leaf_find']);
    expect(textOf(await c.callTool('mid_leaf_find', { query: 'rain' }))).toBe('notes about rain');
    leaf.add(new Alerts());
    await c.callTool('mid_leaf_find', { query: 'sync' });
    expect(c.notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');
    expect(await names(c)).toEqual(['mid_leaf_find', 'mid_leaf_alerts']);
    // A parent following a child is not one of the child's connections.
    expect(leaf.connectionCount).toBe(0);
    expect(top.connectionCount).toBe(1);
    valid(c, LEGACY);
  });
});

describe('unmount', () => {
  it('unmounting a child removes its members and tells clients; the child no longer reaches the parent', async () => {
    const { weather, app } = servers();
    const c = await client(app, LEGACY);
    expect(app.unmount(weather)).toBe(true);
    await c.callTool('search', { q: 'sync' });
    expect(c.notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');
    expect(await names(c)).toEqual(['search']);
    weather.add(new Alerts());
    expect(app.registry.tool('weather_alerts')).toBeUndefined();
    expect(app.unmount(weather)).toBe(false);
    // Mounted again, under another namespace.
    app.mount(weather, { namespace: 'w' });
    expect(app.registry.tool('w_alerts')).toBeDefined();
  });
});

describe('mount while serving', () => {
  it.each(ERAS)(
    'mounting a server while clients are connected tells them the lists changed, %s',
    async (era) => {
      const app = createServer({ name: 'app', version: '1', providers: [Notes] });
      const c = await client(app, era);
      const listening =
        era === MODERN
          ? c.rawRequest('subscriptions/listen', {
              _meta: { [V]: MODERN, [CAPS]: {} },
              notifications: { toolsListChanged: true },
            })
          : undefined;
      listening?.catch(() => {});
      await c.callTool('search', { q: 'sync' });
      app.mount(createServer({ name: 'weather', version: '1', providers: [Forecasts] }), {
        namespace: 'weather',
      });
      await c.callTool('search', { q: 'sync' });
      const seen = c.notifications.map((n) => n.method);
      expect(seen).toContain('notifications/tools/list_changed');
      expect(await names(c)).toContain('weather_get_forecast');
      app.endSubscriptions();
      await listening;
      valid(c, era);
    },
  );
});

describe('mount: bad input', () => {
  it('a prompt name collision is a startup error naming both prompts', () => {
    class Outlooks {
      @Prompt({ description: 'Mine', input: z.object({}) })
      weather_outlook() {
        return 'mine';
      }
    }
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Outlooks] });
    expect(() => app.mount(weather, { namespace: 'weather' })).toThrow(
      /Duplicate prompt name "weather_outlook": Outlooks\.weather_outlook and Forecasts\.outlook \(mounted as "weather"\)\..*Or mount its server under another namespace\./,
    );
  });

  it('a name collision is a startup error naming both members', () => {
    class Clash {
      @Tool({ description: 'Clashes', input: z.object({}) })
      weather_get_forecast() {
        return 'mine';
      }
    }
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Clash] });
    let error: unknown;
    try {
      app.mount(weather, { namespace: 'weather' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).code).toBe('DUPLICATE_NAME');
    expect((error as Error).message).toMatch(
      /"weather_get_forecast": Clash\.weather_get_forecast and Forecasts\.get_forecast \(mounted as "weather"\)/,
    );
    expect((error as Error).message).toMatch(/namespace/);
    // Nothing changed: the parent still serves only its own tool.
    expect(app.registry.tools.map((t) => t.name)).toEqual(['weather_get_forecast']);
  });

  it('two servers offering one resource URI is a startup error naming both', () => {
    class Stations {
      @Resource('weather://stations')
      stations() {
        return 'mine';
      }
    }
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Stations] });
    expect(() => app.mount(weather, { namespace: 'weather' })).toThrow(
      /Duplicate resource URI "weather:\/\/stations": Stations\.stations and Forecasts\.stations \(mounted as "weather"\)/,
    );
  });

  it('a child gaining a member that clashes in its parent fails naming both, and nothing changes', () => {
    class Later {
      @Tool({ description: 'Clashes later', input: z.object({}) })
      search() {
        return 'x';
      }
    }
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Notes] });
    app.mount(weather, { namespace: 'w', separator: '' });
    class Searchy {
      @Tool({ description: 'Clashes', input: z.object({}) })
      wsearch() {
        return 'x';
      }
    }
    app.add(new Searchy());
    expect(() => weather.add(new Later())).toThrow(
      /"wsearch": Searchy\.wsearch and Later\.search \(mounted as "w"\)/,
    );
    expect(weather.registry.tool('search')).toBeUndefined();
  });

  it('mounting a server into itself or into its own child is a startup error', () => {
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Notes] });
    expect(() => app.mount(app, { namespace: 'self' })).toThrow(/cycle/);
    app.mount(weather, { namespace: 'weather' });
    expect(() => weather.mount(app, { namespace: 'app' })).toThrow(/cycle/);
  });

  it('an invalid namespace is a startup error naming the fix', () => {
    const weather = createServer({ name: 'weather', version: '1', providers: [Forecasts] });
    const app = createServer({ name: 'app', version: '1', providers: [Notes] });
    expect(() => app.mount(weather, { namespace: 'the weather' })).toThrow(
      /Invalid namespace "the weather".*Fix: mount\(child, \{ namespace: 'weather' \}\)/,
    );
  });
});
