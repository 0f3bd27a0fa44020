import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import {
  Arg,
  audio,
  Context,
  createServer,
  embeddedResource,
  image,
  resourceLink,
  text,
  Tool,
  type Logger,
  type Provider,
  type StandardSchemaV1,
} from '@mcp-fw/core';
import { connectTestClient, JsonRpcError, type TestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from './support/mcp-schema.ts';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(providers: Provider[], protocolVersion = '2025-11-25', logger?: Logger) {
  const server = createServer({ name: 'schema-sources', version: '1.0.0', providers, logger });
  const client = await connectTestClient(server, {
    protocolVersion,
    capabilities: { roots: { listChanged: true } },
    clientInfo: { name: 'probe', version: '9.9.9' },
  });
  clients.push(client);
  return client;
}

/** Lists every tool and checks the result against the revision's official schema. */
async function listChecked(client: TestClient, revision = '2025-11-25') {
  const result = await client.listTools();
  expect(mcpSchema(revision).check({ jsonrpc: '2.0', id: 1, result }, 'tools/list')).toEqual([]);
  return result.tools;
}

async function callChecked(
  client: TestClient,
  name: string,
  args?: Record<string, unknown>,
  revision = '2025-11-25',
) {
  const result = await client.callTool(name, args);
  expect(mcpSchema(revision).check({ jsonrpc: '2.0', id: 1, result }, 'tools/call')).toEqual([]);
  return result;
}

async function rejection(promise: Promise<unknown>): Promise<JsonRpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcError);
  return error as JsonRpcError;
}

/** A hand-written Standard Schema (no library) whose converters count their calls. */
function handSchema() {
  const calls = { input: 0, output: 0, validate: 0 };
  const schema: StandardSchemaV1<{ word: string }> = {
    '~standard': {
      version: 1,
      vendor: 'hand',
      validate(value) {
        calls.validate++;
        const word = (value as { word?: unknown } | null)?.word;
        if (typeof word === 'string') return { value: { word: word.toUpperCase() } };
        return { issues: [{ message: 'must be a string', path: [{ key: 'word' }] }] };
      },
      jsonSchema: {
        input: ({ target }) => {
          calls.input++;
          const properties = { word: { type: 'string' } };
          return { $schema: DRAFT_2020_12, 'x-target': target, type: 'object', properties };
        },
        output: ({ target }) => {
          calls.output++;
          const properties = { word: { const: 'OUT' } };
          return { $schema: DRAFT_2020_12, 'x-target': target, type: 'object', properties };
        },
      },
    },
  };
  return { schema, calls };
}

describe('input and output schema sources in tools/list', () => {
  it('zod 4: input mode (defaults optional, descriptions kept) and output mode for outputSchema', async () => {
    class Zod4 {
      @Tool({
        description: 'zod 4',
        input: z.object({
          a: z.string().describe('The A'),
          n: z.number().default(3),
          o: z.boolean().optional(),
        }),
        output: z.object({ sum: z.number().describe('The sum'), unit: z.string().default('m') }),
      })
      zod4(args: { a: string; n: number }) {
        return { sum: args.n, unit: 'm' };
      }
    }
    const tools = await listChecked(await connect([Zod4]));
    expect(tools).toEqual([
      {
        name: 'zod4',
        description: 'zod 4',
        inputSchema: {
          $schema: DRAFT_2020_12,
          type: 'object',
          properties: {
            a: { type: 'string', description: 'The A' },
            n: { type: 'number', default: 3 },
            o: { type: 'boolean' },
          },
          required: ['a'],
        },
        outputSchema: {
          $schema: DRAFT_2020_12,
          type: 'object',
          properties: {
            sum: { type: 'number', description: 'The sum' },
            unit: { type: 'string', default: 'm' },
          },
          required: ['sum', 'unit'],
          additionalProperties: false,
        },
      },
    ]);
  });

  it('zod 4: validation applies defaults and names the failing field', async () => {
    class Zod4 {
      @Tool({ input: z.object({ a: z.string(), n: z.number().default(3) }) })
      echo(args: { a: string; n: number }) {
        return JSON.stringify(args);
      }
    }
    const client = await connect([Zod4]);
    expect(await callChecked(client, 'echo', { a: 'x' })).toEqual({
      content: [{ type: 'text', text: '{"a":"x","n":3}' }],
    });
    const bad = await callChecked(client, 'echo', { a: 1 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toHaveLength(1);
    expect(bad.content[0].text).toMatch(/^Invalid arguments for tool echo: a: /);
  });

  it('zod 3: converted by zod-to-json-schema to draft-07 and validated', async () => {
    class Zod3 {
      @Tool({ input: z3.object({ a: z3.string().describe('The A'), n: z3.number().int() }) })
      zod3(args: { a: string; n: number }) {
        return `${args.a}:${args.n}`;
      }
    }
    const client = await connect([Zod3]);
    expect(await listChecked(client)).toEqual([
      {
        name: 'zod3',
        inputSchema: {
          $schema: DRAFT_07,
          type: 'object',
          properties: { a: { type: 'string', description: 'The A' }, n: { type: 'integer' } },
          required: ['a', 'n'],
          additionalProperties: false,
        },
      },
    ]);
    expect(await callChecked(client, 'zod3', { a: 'x', n: 2 })).toEqual({
      content: [{ type: 'text', text: 'x:2' }],
    });
    const bad = await callChecked(client, 'zod3', { a: 'x', n: 1.5 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/^Invalid arguments for tool zod3: n: /);
    const missing = await callChecked(client, 'zod3', { n: 1 });
    expect(missing.content[0].text).toMatch(/^Invalid arguments for tool zod3: a: /);
  });

  it('zod 3 without Standard Schema (< 3.24): the draft-07 Ajv checks the converted schema', async () => {
    // Hiding `~standard` leaves only `_def`, as in zod 3 releases before Standard Schema: the
    // validator must then come from the converted draft-07 schema (Ajv2020 would refuse it).
    const zod3 = z3.object({ n: z3.number().int() });
    const legacyZod3 = Object.create(zod3, { '~standard': { value: undefined } }) as object;
    class OldZod3 {
      @Tool({ input: legacyZod3 as never })
      old(args: { n: number }) {
        return String(args.n);
      }
    }
    const client = await connect([OldZod3]);
    expect((await listChecked(client))[0].inputSchema).toEqual({
      $schema: DRAFT_07,
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    });
    expect(await callChecked(client, 'old', { n: 4 })).toEqual({
      content: [{ type: 'text', text: '4' }],
    });
    expect(await callChecked(client, 'old', { n: 1.5 })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool old: n: must be integer' }],
      isError: true,
    });
    expect(await callChecked(client, 'old', { n: 1, extra: true })).toEqual({
      content: [
        { type: 'text', text: 'Invalid arguments for tool old: extra: is not an allowed property' },
      ],
      isError: true,
    });
  });

  it('any Standard Schema: jsonSchema.input/output for the schemas, ~standard.validate for checks', async () => {
    const input = handSchema();
    const output = handSchema();
    class Hand {
      @Tool({ input: input.schema, output: output.schema })
      shout(args: { word: string }) {
        return { word: args.word === 'OUT' ? 'OUT' : args.word };
      }
    }
    const client = await connect([Hand]);
    expect(await listChecked(client)).toEqual([
      {
        name: 'shout',
        inputSchema: {
          $schema: DRAFT_2020_12,
          'x-target': 'draft-2020-12',
          type: 'object',
          properties: { word: { type: 'string' } },
        },
        outputSchema: {
          $schema: DRAFT_2020_12,
          'x-target': 'draft-2020-12',
          type: 'object',
          properties: { word: { const: 'OUT' } },
        },
      },
    ]);
    expect({ input: input.calls.input, output: output.calls.output }).toEqual({
      input: 1,
      output: 1,
    });
    // The validated value (upper-cased by the schema) is what the handler receives.
    expect(await callChecked(client, 'shout', { word: 'out' })).toEqual({
      content: [{ type: 'text', text: '{"word":"OUT"}' }],
      structuredContent: { word: 'OUT' },
    });
    expect(await callChecked(client, 'shout', { word: 3 })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool shout: word: must be a string' }],
      isError: true,
    });
  });

  it('raw JSON Schema (2020-12) is passed through verbatim and validated', async () => {
    const given = () => ({
      $schema: DRAFT_2020_12,
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number' }, y: { type: 'number' } },
          required: ['x', 'y'],
        },
      },
      type: 'object',
      properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
      required: ['from', 'to'],
      additionalProperties: false,
      'x-vendor': { keep: true },
    });
    class Raw {
      @Tool({ input: given() })
      distance({ from, to }: { from: { x: number; y: number }; to: { x: number; y: number } }) {
        return String(Math.hypot(to.x - from.x, to.y - from.y));
      }
    }
    const client = await connect([Raw]);
    expect((await listChecked(client))[0].inputSchema).toStrictEqual(given());
    expect(
      await callChecked(client, 'distance', { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } }),
    ).toEqual({
      content: [{ type: 'text', text: '5' }],
    });
    expect(await callChecked(client, 'distance', { from: { x: 0 }, to: { x: 3, y: 4 } })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool distance: from.y: is required' }],
      isError: true,
    });
    expect(
      await callChecked(client, 'distance', { from: { x: 0, y: 0 }, to: { x: 3, y: 4 }, z: 1 }),
    ).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool distance: z: is not an allowed property',
        },
      ],
      isError: true,
    });
  });

  it('raw JSON Schema (draft-07) is passed through verbatim and checked by the draft-07 Ajv', async () => {
    const given = () => ({
      $schema: DRAFT_07,
      definitions: { qty: { type: 'integer', minimum: 1 } },
      type: 'object',
      properties: { sku: { type: 'string' }, qty: { $ref: '#/definitions/qty' } },
      required: ['sku', 'qty'],
      additionalProperties: false,
    });
    class Draft7 {
      @Tool({ input: given() })
      order({ sku, qty }: { sku: string; qty: number }) {
        return `${qty}x${sku}`;
      }
    }
    const client = await connect([Draft7]);
    expect((await listChecked(client))[0].inputSchema).toStrictEqual(given());
    expect(await callChecked(client, 'order', { sku: 'A', qty: 2 })).toEqual({
      content: [{ type: 'text', text: '2xA' }],
    });
    expect(await callChecked(client, 'order', { sku: 'A', qty: 0 })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool order: qty: must be >= 1' }],
      isError: true,
    });
  });

  it('a raw schema without a type gets type "object"', async () => {
    class Untyped {
      @Tool({ input: { properties: { q: { type: 'string' } }, required: ['q'] } })
      search({ q }: { q: string }) {
        return q;
      }
    }
    const client = await connect([Untyped]);
    expect((await listChecked(client))[0].inputSchema).toStrictEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    expect(await callChecked(client, 'search', {})).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool search: q: is required' }],
      isError: true,
    });
  });

  it('a tool without parameters gets an empty object schema', async () => {
    class NoArgs {
      @Tool({ description: 'Now' })
      now() {
        return 'now';
      }
    }
    const client = await connect([NoArgs]);
    expect(await listChecked(client)).toEqual([
      { name: 'now', description: 'Now', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(await callChecked(client, 'now')).toEqual({ content: [{ type: 'text', text: 'now' }] });
  });
});

describe('@Arg parameters', () => {
  it('maps design:paramtypes string/number/boolean/array to JSON types, all required', async () => {
    class Hinted {
      @Tool()
      hinted(
        @Arg('s') s: string,
        @Arg('n') n: number,
        @Arg('b') b: boolean,
        @Arg('list') list: string[],
      ) {
        return JSON.stringify([s, n, b, list]);
      }
    }
    const client = await connect([Hinted]);
    expect((await listChecked(client))[0].inputSchema).toStrictEqual({
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        list: { type: 'array' },
      },
      required: ['s', 'n', 'b', 'list'],
    });
    expect(await callChecked(client, 'hinted', { s: 'x', n: 1, b: true, list: ['y'] })).toEqual({
      content: [{ type: 'text', text: '["x",1,true,["y"]]' }],
    });
    expect(await callChecked(client, 'hinted', { s: 'x', n: 'one', b: true, list: [] })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool hinted: n: must be number' }],
      isError: true,
    });
  });

  it('uses given schemas; zod .optional() and { optional: true } are not required', async () => {
    class Schemas {
      @Tool('Ships an order')
      ship(
        @Arg('order_id', z.string().describe('The order')) orderId: string,
        @Arg('express', z.boolean().optional()) express: boolean | undefined,
        @Arg('qty', { type: 'integer', minimum: 1 }, { optional: true, description: 'How many' })
        qty?: number,
      ) {
        return JSON.stringify({ orderId, express: express ?? null, qty: qty ?? null });
      }
    }
    const client = await connect([Schemas]);
    expect(await listChecked(client)).toEqual([
      {
        name: 'ship',
        description: 'Ships an order',
        inputSchema: {
          type: 'object',
          properties: {
            order_id: { type: 'string', description: 'The order' },
            express: { type: 'boolean' },
            qty: { type: 'integer', minimum: 1, description: 'How many' },
          },
          required: ['order_id'],
        },
      },
    ]);
    expect(await callChecked(client, 'ship', { order_id: 'A1' })).toEqual({
      content: [{ type: 'text', text: '{"orderId":"A1","express":null,"qty":null}' }],
    });
    expect(await callChecked(client, 'ship', { order_id: 'A1', express: true, qty: 2 })).toEqual({
      content: [{ type: 'text', text: '{"orderId":"A1","express":true,"qty":2}' }],
    });
    expect(await callChecked(client, 'ship', { qty: 0 })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool ship: order_id: is required; qty: must be >= 1',
        },
      ],
      isError: true,
    });
  });

  it('passes positional parameters, then the context', async () => {
    const seen: unknown[] = [];
    class Positional {
      @Tool()
      greet(
        @Arg('name', z.string()) name: string,
        @Arg('times', z.number()) times: number,
        ctx: Context,
      ) {
        seen.push(name, times, ctx instanceof Context, ctx.protocolVersion);
        return `${name}!`.repeat(times);
      }
    }
    const client = await connect([Positional], '2025-06-18');
    expect(await callChecked(client, 'greet', { times: 2, name: 'hi' }, '2025-06-18')).toEqual({
      content: [{ type: 'text', text: 'hi!hi!' }],
    });
    expect(seen).toEqual(['hi', 2, true, '2025-06-18']);
  });
});

describe('compiled once', () => {
  it('converts each schema once, however many lists and calls follow', async () => {
    const { schema, calls } = handSchema();
    class Once {
      @Tool({ input: schema })
      once(args: { word: string }) {
        return args.word;
      }
    }
    const server = createServer({ name: 'once', version: '1', providers: [Once] });
    const a = await connectTestClient(server);
    const b = await connectTestClient(server, { protocolVersion: '2024-11-05' });
    clients.push(a, b);
    for (let i = 0; i < 5; i++) {
      await a.listTools();
      await b.listTools();
      expect(await a.callTool('once', { word: 'w' })).toEqual({
        content: [{ type: 'text', text: 'W' }],
      });
    }
    expect(calls).toEqual({ input: 1, output: 0, validate: 5 });
  });
});

describe('tools/call results', () => {
  const Point = z.object({ x: z.number(), y: z.number() });

  class Results {
    @Tool()
    plain() {
      return 'hello';
    }

    @Tool({ output: Point })
    point() {
      return { x: 1, y: 2 };
    }

    @Tool({ output: Point })
    broken() {
      return { x: 'one', y: 2 };
    }

    @Tool()
    blocks() {
      return [
        text('a', { audience: ['user'], priority: 0.5 }),
        'b',
        image(new Uint8Array([1, 2, 3]), 'image/png'),
      ];
    }

    @Tool()
    helpers() {
      return [
        image('iVBORw0KGgo=', 'image/png'),
        audio(new Uint8Array([0, 255, 16]), 'audio/wav'),
        resourceLink({ uri: 'file:///logs/today.log', name: 'today.log', mimeType: 'text/plain' }),
        embeddedResource({ uri: 'mem://report.csv', mimeType: 'text/csv', text: 'a,b\n1,2' }),
        embeddedResource({ uri: 'mem://blob', bytes: new TextEncoder().encode('hi') }),
      ];
    }
  }

  it('a string becomes one text block', async () => {
    const client = await connect([Results]);
    expect(await callChecked(client, 'plain')).toEqual({
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('an object with an output schema becomes structuredContent plus its JSON as text', async () => {
    const client = await connect([Results]);
    expect(await callChecked(client, 'point')).toEqual({
      content: [{ type: 'text', text: '{"x":1,"y":2}' }],
      structuredContent: { x: 1, y: 2 },
    });
  });

  it('output that violates the output schema is -32603 without details; details go to the logger', async () => {
    const logged: string[] = [];
    // Warnings (these test tools have no descriptions) are not what this test is about.
    const logger: Logger = { error: (message) => logged.push(message), warn: () => {} };
    const client = await connect([Results], '2025-11-25', logger);
    const error = await rejection(client.callTool('broken'));
    expect(error.toJSON()).toEqual({
      code: -32603,
      message: 'Internal error: tool broken returned invalid structured output',
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^Tool broken returned output that does not match its outputSchema: x: /,
    );
  });

  it('content arrays pass through as given, strings inside them become text blocks', async () => {
    const client = await connect([Results]);
    expect(await callChecked(client, 'blocks')).toEqual({
      content: [
        { type: 'text', text: 'a', annotations: { audience: ['user'], priority: 0.5 } },
        { type: 'text', text: 'b' },
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
      ],
    });
  });

  it('content helpers build the spec blocks, base64-encoding bytes', async () => {
    expect(text('t')).toEqual({ type: 'text', text: 't' });
    const client = await connect([Results]);
    expect(await callChecked(client, 'helpers')).toEqual({
      content: [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'AP8Q', mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'file:///logs/today.log',
          name: 'today.log',
          mimeType: 'text/plain',
        },
        {
          type: 'resource',
          resource: { uri: 'mem://report.csv', mimeType: 'text/csv', text: 'a,b\n1,2' },
        },
        { type: 'resource', resource: { uri: 'mem://blob', blob: 'aGk=' } },
      ],
    });
  });

  it('bytes from a view into a larger buffer encode only the view', () => {
    const buffer = new Uint8Array([9, 1, 2, 3, 9]);
    expect(image(buffer.subarray(1, 4), 'image/png').data).toBe('AQID');
  });

  it('the (args, ctx) handler gets a context with signal, requestId, client and protocolVersion', async () => {
    const seen: Record<string, unknown>[] = [];
    class WithContext {
      @Tool({ input: z.object({ q: z.string() }) })
      whoami(args: { q: string }, ctx: Context) {
        seen.push({
          args,
          signal: ctx.signal instanceof AbortSignal && !ctx.signal.aborted,
          requestId: ctx.requestId,
          info: ctx.client.info,
          capabilities: ctx.client.capabilities,
          protocolVersion: ctx.protocolVersion,
        });
        return 'ok';
      }
    }
    const client = await connect([WithContext], '2025-03-26');
    await callChecked(client, 'whoami', { q: 'x' }, '2025-03-26');
    expect(seen).toEqual([
      {
        args: { q: 'x' },
        signal: true,
        requestId: 1,
        info: { name: 'probe', version: '9.9.9' },
        capabilities: { roots: { listChanged: true } },
        protocolVersion: '2025-03-26',
      },
    ]);
  });
});

describe('result shapes per revision', () => {
  class Rich {
    @Tool({
      title: 'Rich tool',
      description: 'Has every optional field',
      input: z.object({ n: z.number() }),
      output: z.object({ doubled: z.number() }),
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
      _meta: { 'example.com/k': 1 },
    })
    rich({ n }: { n: number }) {
      return { doubled: n * 2 };
    }

    @Tool()
    link() {
      return [resourceLink({ uri: 'file:///a', name: 'a' }), audio('AA==', 'audio/wav')];
    }
  }

  const inputSchema = {
    $schema: DRAFT_2020_12,
    type: 'object',
    properties: { n: { type: 'number' } },
    required: ['n'],
  };

  it('2024-11-05: no title/outputSchema/annotations/icons in lists, no structuredContent', async () => {
    const client = await connect([Rich], '2024-11-05');
    expect(await listChecked(client, '2024-11-05')).toEqual([
      { name: 'rich', description: 'Has every optional field', inputSchema },
      { name: 'link', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(await callChecked(client, 'rich', { n: 2 }, '2024-11-05')).toEqual({
      content: [{ type: 'text', text: '{"doubled":4}' }],
    });
    expect(await callChecked(client, 'link', undefined, '2024-11-05')).toEqual({
      content: [
        { type: 'text', text: 'Resource: a <file:///a>' },
        {
          type: 'text',
          text: '[audio content (audio/wav) is not supported by this protocol revision]',
        },
      ],
    });
    // Before 2025-11-25, invalid arguments are a protocol error, not a tool result.
    const error = await rejection(client.callTool('rich', { n: 'two' }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid arguments for tool rich: n: /);
  });

  it('2025-03-26: annotations appear; title, outputSchema and structuredContent do not', async () => {
    const client = await connect([Rich], '2025-03-26');
    expect((await listChecked(client, '2025-03-26'))[0]).toEqual({
      name: 'rich',
      description: 'Has every optional field',
      inputSchema,
      annotations: { readOnlyHint: true },
    });
    expect(await callChecked(client, 'rich', { n: 2 }, '2025-03-26')).toEqual({
      content: [{ type: 'text', text: '{"doubled":4}' }],
    });
  });

  it('2025-11-25: every field', async () => {
    const client = await connect([Rich], '2025-11-25');
    expect((await listChecked(client, '2025-11-25'))[0]).toEqual({
      name: 'rich',
      title: 'Rich tool',
      description: 'Has every optional field',
      inputSchema,
      outputSchema: {
        $schema: DRAFT_2020_12,
        type: 'object',
        properties: { doubled: { type: 'number' } },
        required: ['doubled'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
      _meta: { 'example.com/k': 1 },
    });
    expect(await callChecked(client, 'rich', { n: 2 })).toEqual({
      content: [{ type: 'text', text: '{"doubled":4}' }],
      structuredContent: { doubled: 4 },
    });
  });
});

describe('tools/list pagination', () => {
  class Five {
    @Tool() e() {
      return 'e';
    }
    @Tool() d() {
      return 'd';
    }
    @Tool() c() {
      return 'c';
    }
    @Tool() b() {
      return 'b';
    }
    @Tool() a() {
      return 'a';
    }
  }

  it('pages of 2, 2, 1 through opaque cursors, in registration order', async () => {
    const server = createServer({ name: 'pages', version: '1', providers: [Five], pageSize: 2 });
    const client = await connectTestClient(server);
    clients.push(client);
    const check = (result: unknown) =>
      expect(
        mcpSchema('2025-11-25').check({ jsonrpc: '2.0', id: 1, result }, 'tools/list'),
      ).toEqual([]);
    const first = await client.listTools();
    check(first);
    expect(first.tools.map((t) => t.name)).toEqual(['e', 'd']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.listTools(first.nextCursor);
    check(second);
    expect(second.tools.map((t) => t.name)).toEqual(['c', 'b']);
    expect(typeof second.nextCursor).toBe('string');
    expect(second.nextCursor).not.toBe(first.nextCursor);
    const third = await client.listTools(second.nextCursor);
    check(third);
    expect(third).toEqual({
      tools: [{ name: 'a', inputSchema: { type: 'object', properties: {} } }],
    });
    // Stable: asking again gives the same pages.
    expect(await client.listTools()).toEqual(first);
    expect(await client.listTools(first.nextCursor)).toEqual(second);
  });

  it('a garbage cursor is -32602', async () => {
    const server = createServer({ name: 'pages', version: '1', providers: [Five], pageSize: 2 });
    const client = await connectTestClient(server);
    clients.push(client);
    for (const cursor of ['garbage', '', '!!!']) {
      const error = await rejection(client.listTools(cursor));
      expect(error.code).toBe(-32602);
    }
    const error = await rejection(client.request('tools/list', { cursor: 42 }));
    expect(error.code).toBe(-32602);
    // Once pages are cached: a valid cursor wrapped in an array and the text "undefined" (the
    // first page's old cache key) are refused too.
    const first = await client.listTools();
    await client.listTools(first.nextCursor);
    for (const cursor of [[first.nextCursor], 'undefined']) {
      const refused = await rejection(client.request('tools/list', { cursor }));
      expect(refused).toMatchObject({
        code: -32602,
        message: 'Invalid params: unknown or malformed cursor',
      });
    }
  });

  it('without a page size every tool comes in one page', async () => {
    const client = await connect([Five]);
    const result = await client.listTools();
    expect(result.tools.map((t) => t.name)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(result.nextCursor).toBeUndefined();
  });
});
