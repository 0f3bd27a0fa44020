import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  Prompt,
  Resource,
  StartupError,
  Tool,
  Use,
  type McpFwServer,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { checkServerLines } from './support/wire-log.ts';

const ERAS = ['2025-11-25', '2026-07-28'] as const;

const calls: unknown[] = [];

class Forecasts {
  @Tool({
    description: 'The forecast for a city',
    input: z.object({
      city: z.string(),
      units: z.enum(['metric', 'imperial']),
      days: z.number().int().min(1).max(14).default(7),
    }),
    output: z.object({ city: z.string(), units: z.string(), days: z.number() }),
  })
  get_forecast(args: { city: string; units: string; days: number }) {
    calls.push(args);
    return args;
  }

  @Tool({
    description: 'Tagged admin',
    input: z.object({}),
    _meta: { tags: ['admin'], version: '2' },
  })
  purge() {
    return 'purged';
  }

  @Resource('weather://stations', { mimeType: 'text/plain', description: 'Stations' })
  stations() {
    return 'Paris, Oslo';
  }

  @Resource('weather://secret', { mimeType: 'text/plain', scopes: ['weather:admin'] })
  secret() {
    return 'classified';
  }

  @Use(() => {
    throw new Error('guarded by middleware');
  })
  @Resource('weather://guarded', { mimeType: 'text/plain' })
  guarded() {
    return 'behind middleware';
  }

  @Prompt({ description: 'Asks about the weather', input: z.object({ city: z.string() }) })
  outlook({ city }: { city: string }) {
    return `What is the weather in ${city}?`;
  }
}

const weatherServer = () =>
  createServer({ name: 'weather', version: '1.0.0', providers: [Forecasts] });

function mounted(): { app: McpFwServer; weather: McpFwServer } {
  const weather = weatherServer();
  const app = createServer({ name: 'app', version: '1.0.0' });
  app.mount(weather, { namespace: 'weather' });
  return { app, weather };
}

const client = (server: McpFwServer, era: string) =>
  connectTestClient(server, { protocolVersion: era });
const tool = async (c: TestClient, name: string) =>
  (await c.listTools()).tools.find((t) => t.name === name);
const valid = (c: TestClient, era: string) => expect(checkServerLines(c.wire, era)).toEqual([]);

describe.each(ERAS)('transforms, %s', (era) => {
  it('renames and redescribes a tool (local and mounted alike)', async () => {
    const local = weatherServer().transform('get_forecast', {
      name: 'forecast',
      description: 'Metric forecasts',
    });
    const { app } = mounted();
    app.transform('weather_get_forecast', { name: 'forecast', description: 'Metric forecasts' });
    for (const server of [local, app]) {
      const c = await client(server, era);
      const listed = await tool(c, 'forecast');
      expect(listed?.description).toBe('Metric forecasts');
      expect(await tool(c, 'weather_get_forecast')).toBeUndefined();
      const result = await c.callTool('forecast', { city: 'Oslo', units: 'metric' });
      expect(result.structuredContent).toEqual({ city: 'Oslo', units: 'metric', days: 7 });
      valid(c, era);
    }
  });

  it('hides an argument with a fixed value, renames, describes and narrows others; calls are validated against the new schema and mapped back', async () => {
    const { app } = mounted();
    app.transform('weather_get_forecast', {
      args: {
        units: { hide: true, value: 'imperial' },
        city: { name: 'location', description: 'A city name' },
        days: { type: { type: 'integer', minimum: 1, maximum: 3 } },
      },
    });
    const c = await client(app, era);
    const listed = await tool(c, 'weather_get_forecast');
    expect(listed?.inputSchema.properties).toEqual({
      location: { type: 'string', description: 'A city name' },
      days: { type: 'integer', minimum: 1, maximum: 3 },
    });
    expect(listed?.inputSchema.required).toEqual(['location']);
    calls.length = 0;
    const ok = await c.callTool('weather_get_forecast', { location: 'Oslo', days: 2 });
    expect(calls).toEqual([{ city: 'Oslo', units: 'imperial', days: 2 }]);
    expect(ok.structuredContent).toEqual({ city: 'Oslo', units: 'imperial', days: 2 });
    // Narrowed: 5 is fine for the original (≤ 14) but not for the transformed schema.
    const narrowed = await c
      .callTool('weather_get_forecast', { location: 'Oslo', days: 5 })
      .catch((e: Error) => e);
    expect(JSON.stringify(narrowed instanceof Error ? narrowed.message : narrowed)).toMatch(/days/);
    // The hidden argument cannot be sent to override the fixed value.
    calls.length = 0;
    await c.callTool('weather_get_forecast', { location: 'Oslo', units: 'metric' }).catch(() => {});
    expect(calls.every((call) => (call as { units: string }).units === 'imperial')).toBe(true);
    valid(c, era);
  });

  it('hides an optional argument (its own default applies) and gives another a default shown to clients', async () => {
    const { app } = mounted();
    app.transform('weather_get_forecast', {
      args: { days: { hide: true }, units: { default: 'metric' } },
    });
    const c = await client(app, era);
    const listed = await tool(c, 'weather_get_forecast');
    expect(Object.keys(listed?.inputSchema.properties as object)).toEqual(['city', 'units']);
    expect(
      (listed!.inputSchema.properties as Record<string, { default?: unknown }>).units.default,
    ).toBe('metric');
    expect(listed?.inputSchema.required).toEqual(['city']);
    const result = await c.callTool('weather_get_forecast', { city: 'Rome' });
    expect(result.structuredContent).toEqual({ city: 'Rome', units: 'metric', days: 7 });
  });

  it('wraps a tool in a function that calls forward() with changed arguments and changes the result', async () => {
    const { app } = mounted();
    app.transform('weather_get_forecast', {
      args: { units: { hide: true, value: 'metric' } },
      output: z.object({ summary: z.string() }),
      wrap: async (args, { forward, ctx }) => {
        ctx.log.info(`forecast for ${String(args.city)}`); // ctx is the typed Context
        const result = (await forward({ ...args, city: String(args.city).toUpperCase() })) as {
          city: string;
          days: number;
        };
        return { summary: `${result.city} for ${result.days} days` };
      },
    });
    const c = await client(app, era);
    const listed = await tool(c, 'weather_get_forecast');
    expect(listed?.outputSchema?.properties).toEqual({ summary: { type: 'string' } });
    const result = await c.callTool('weather_get_forecast', { city: 'oslo', days: 2 });
    expect(result.structuredContent).toEqual({ summary: 'OSLO for 2 days' });
    valid(c, era);
  });

  it('filters by name, tag and version', async () => {
    const byTag = mounted().app.filter({ exclude: { tags: ['admin'] } });
    const byName = mounted().app.filter({ include: { names: [/forecast$/] } });
    const byVersion = mounted().app.filter({ include: { versions: ['2'] } });
    expect(byTag.registry.tools.map((t) => t.name)).toEqual(['weather_get_forecast']);
    expect(byName.registry.tools.map((t) => t.name)).toEqual(['weather_get_forecast']);
    expect(byName.registry.prompts).toEqual([]);
    expect(byVersion.registry.tools.map((t) => t.name)).toEqual(['weather_purge']);
    const c = await client(byTag, era);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['weather_get_forecast']);
    const refused = await c.callTool('weather_purge', {}).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
  });

  it('serves resources and prompts as tools, for tool-only clients, but not scoped ones', async () => {
    const { app } = mounted();
    app.exposeAsTools({ resources: true, prompts: true });
    const c = await client(app, era);
    const listedNames = (await c.listTools()).tools.map((t) => t.name);
    expect(listedNames).toEqual(
      expect.arrayContaining(['list_resources', 'read_resource', 'list_prompts', 'get_prompt']),
    );
    const list = JSON.parse((await c.callTool('list_resources', {})).content[0].text!);
    expect(list.resources.map((r: { uri: string }) => r.uri)).toEqual(['weather://stations']);
    expect((await c.callTool('read_resource', { uri: 'weather://stations' })).content[0].text).toBe(
      'Paris, Oslo',
    );
    const secret = await c.callTool('read_resource', { uri: 'weather://secret' });
    expect(secret.isError).toBe(true);
    expect(secret.content[0].text).toMatch(/declares OAuth scopes or middleware.*resources\/read/);
    const guarded = await c.callTool('read_resource', { uri: 'weather://guarded' });
    expect(guarded.isError).toBe(true);
    expect(guarded.content[0].text).toMatch(/declares OAuth scopes or middleware/);
    const missing = await c.callTool('read_resource', { uri: 'weather://nowhere' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/Resource not found: weather:\/\/nowhere/);
    const prompt = JSON.parse(
      (await c.callTool('get_prompt', { name: 'weather_outlook', arguments: { city: 'Oslo' } }))
        .content[0].text!,
    );
    expect(prompt.messages[0].content.text).toBe('What is the weather in Oslo?');
    valid(c, era);
  });

  it('transforms a proxied member (a tool whose handler forwards to another server) like any other', async () => {
    const upstream = weatherServer();
    const link = await connectTestClient(upstream, { protocolVersion: era });
    class Proxied {
      @Tool({
        name: 'get_forecast',
        description: 'Forwarded',
        input: {
          type: 'object',
          properties: { city: { type: 'string' }, units: { type: 'string' } },
          required: ['city', 'units'],
        },
      })
      get_forecast(args: Record<string, unknown>) {
        return link.callTool('get_forecast', args);
      }
    }
    const gateway = createServer({ name: 'gw', version: '1', providers: [new Proxied()] });
    gateway.transform('get_forecast', { args: { units: { hide: true, value: 'metric' } } });
    const c = await client(gateway, era);
    expect(Object.keys((await tool(c, 'get_forecast'))!.inputSchema.properties as object)).toEqual([
      'city',
    ]);
    const result = await c.callTool('get_forecast', { city: 'Lima' });
    expect(result.structuredContent).toEqual({ city: 'Lima', units: 'metric', days: 7 });
    await link.close();
  });
});

describe('transforms at runtime', () => {
  it('keeps applying when the child changes, reusing the transformed tool (its validator compiled once)', () => {
    const { app, weather } = mounted();
    app.transform('weather_get_forecast', { name: 'forecast' });
    const before = app.registry.tool('forecast');
    class More {
      @Tool({ description: 'More', input: z.object({}) })
      more() {
        return 'more';
      }
    }
    weather.add(new More());
    expect(app.registry.tool('weather_more')).toBeDefined();
    expect(app.registry.tool('forecast')).toBe(before);
    weather.tools.disable('get_forecast');
    expect(app.registry.tool('forecast')).toBeUndefined();
    weather.tools.enable('get_forecast');
    expect(app.registry.tool('forecast')).toBe(before);
  });
});

describe('transforms: bad input', () => {
  const failure = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(StartupError);
      return error as StartupError;
    }
    throw new Error('did not throw');
  };

  it('a transform naming a missing argument is a startup error naming member, argument and fix', () => {
    const { app } = mounted();
    const error = failure(() =>
      app.transform('weather_get_forecast', { args: { unit: { hide: true, value: 'metric' } } }),
    );
    expect(error.code).toBe('INVALID_TRANSFORM');
    expect(error.message).toBe(
      'server.transform("weather_get_forecast"): the tool has no argument "unit" (its arguments: city, units, days). Fix: name one of those in args.',
    );
  });

  it('hiding a required argument without a value is a startup error naming member and fix', () => {
    const { app } = mounted();
    const error = failure(() =>
      app.transform('weather_get_forecast', { args: { city: { hide: true } } }),
    );
    expect(error.message).toMatch(
      /server\.transform\("weather_get_forecast"\): argument "city" is required, so hiding it needs the value to pass\. Fix: args: \{ city: \{ hide: true, value: … \} \}/,
    );
    // Nothing changed.
    expect(app.registry.tool('weather_get_forecast')?.inputSchema.required).toEqual([
      'city',
      'units',
    ]);
  });

  it('a transform of a tool nobody serves is a startup error listing the tools', () => {
    const { app } = mounted();
    const error = failure(() => app.transform('get_forecast', { name: 'x' }));
    expect(error.message).toMatch(
      /no tool of that name is served \(tools: weather_get_forecast, weather_purge\).*namespace/,
    );
  });

  it('renaming a tool onto another name is a startup error naming both', () => {
    const { app } = mounted();
    const error = failure(() => app.transform('weather_purge', { name: 'weather_get_forecast' }));
    expect(error.code).toBe('DUPLICATE_NAME');
    expect(error.message).toMatch(
      /Forecasts\.get_forecast \(mounted as "weather"\) and Forecasts\.purge/,
    );
  });

  it('two arguments renamed to one name is a startup error', () => {
    const { app } = mounted();
    const error = failure(() =>
      app.transform('weather_get_forecast', { args: { city: { name: 'units' } } }),
    );
    expect(error.message).toMatch(/arguments "city" and "units" would both be named "units"/);
  });

  it('an argument transform that is not an object, or an invalid new name, is a startup error naming the fix', () => {
    const { app } = mounted();
    expect(
      failure(() => app.transform('weather_get_forecast', { args: { units: 'metric' as never } }))
        .message,
    ).toBe(
      'server.transform("weather_get_forecast"): the transform of argument "units" must be an object, got "metric". Fix: args: { units: { hide: true, value: "metric" } } to fix its value.',
    );
    const named = failure(() => app.transform('weather_get_forecast', { name: 'the forecast' }));
    expect(named.code).toBe('INVALID_NAME');
    expect(named.message).toMatch(/invalid new name "the forecast".*Fix: name: 'valid_name'/);
  });

  it('a filter with an unknown key is a startup error', () => {
    const { app } = mounted();
    expect(() => app.filter({ exclude: { tag: ['admin'] } } as never)).toThrow(
      /unknown selector key "tag"/,
    );
  });
});
