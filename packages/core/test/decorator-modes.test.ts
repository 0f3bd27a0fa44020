import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Arg, createServer, StartupError, Tool, type Provider } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from './support/mcp-schema.ts';
import { compileFixtures, removeCompiledFixtures } from './support/compile-fixtures.ts';
import { REPO_ROOT } from './support/paths.ts';

const run = promisify(execFile);
const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/modes');
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');

// vitest (oxc) cannot run TC39 decorators, so the fixture runs in real processes: tsx applies
// legacy or TC39 semantics depending on `experimentalDecorators` in the tsconfig it is given.
async function listToolsWithTsx(mode: 'legacy' | 'tc39', script = join(FIXTURE, 'list-tools.ts')) {
  const tsconfig = join(FIXTURE, `tsconfig.${mode}.json`);
  const { stdout } = await run(
    TSX,
    ['--conditions=@mcp-fw/source', '--tsconfig', tsconfig, script],
    {
      cwd: REPO_ROOT,
    },
  );
  return JSON.parse(stdout) as Record<
    string,
    { list: { tools: { name: string }[] }; results: unknown[] }
  >;
}

// The same fixture compiled by tsc (legacy + emitDecoratorMetadata, and TC39).
afterAll(removeCompiledFixtures);

async function listToolsWithTsc(mode: 'legacy' | 'tc39') {
  const out = await compileFixtures(
    `decorator-modes-${mode}`,
    [join(FIXTURE, 'tools.ts'), join(FIXTURE, 'list-tools.ts')],
    {
      experimentalDecorators: mode === 'legacy',
    },
  );
  const script = join(out, 'test/fixtures/modes/list-tools.js');
  expect(existsSync(script)).toBe(true);
  return listToolsWithTsx(mode, script);
}

const names = (entry: { list: { tools: { name: string }[] } }) =>
  entry.list.tools.map((t) => t.name);

describe('the same class under legacy and TC39 decorators', () => {
  it('gives identical tools/list output and results (tsx, both modes)', async () => {
    const [legacy, tc39] = await Promise.all([
      listToolsWithTsx('legacy'),
      listToolsWithTsx('tc39'),
    ]);
    expect(tc39).toEqual(legacy);

    // Not just equal, but right: inheritance, no leaks between classes, stable order.
    expect(names(legacy.catalog)).toEqual(['search', 'count', 'catalog.version']);
    expect(names(legacy.editable)).toEqual(['search', 'count', 'catalog.version', 'remove']);
    expect(names(legacy.plain)).toEqual(['search', 'count', 'catalog.version']);
    expect(names(legacy.clock)).toEqual(['now']);
    expect(names(legacy.both)).toEqual(['search', 'count', 'catalog.version', 'now']);
    expect(legacy.catalog.list.tools[0]).toEqual({
      name: 'search',
      title: 'Search the catalog',
      description: 'Finds items whose name contains the query',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Part of an item name' },
          limit: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 10 },
        },
        required: ['query'],
      },
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                price: { type: 'number' },
              },
              required: ['id', 'name', 'price'],
              additionalProperties: false,
            },
          },
        },
        required: ['items'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    });
    expect(legacy.catalog.results).toEqual([
      {
        content: [{ type: 'text', text: '{"items":[{"id":"a1","name":"Anvil","price":120}]}' }],
        structuredContent: { items: [{ id: 'a1', name: 'Anvil', price: 120 }] },
      },
      { content: [{ type: 'text', text: '2' }] },
      { content: [{ type: 'text', text: 'catalog 1.0.0 (fixture)' }] },
      {
        content: [{ type: 'text', text: 'Invalid arguments for tool search: query: is required' }],
        isError: true,
      },
    ]);
    expect(legacy.editable.results).toEqual([
      { content: [{ type: 'text', text: 'removed 1' }] },
      { content: [{ type: 'text', text: '1' }] },
    ]);
    expect(legacy.plain.results).toEqual([{ content: [{ type: 'text', text: '2 (plain)' }] }]);

    const schema = mcpSchema('2025-11-25');
    for (const entry of Object.values(legacy)) {
      expect(schema.check({ jsonrpc: '2.0', id: 1, result: entry.list }, 'tools/list')).toEqual([]);
      for (const result of entry.results) {
        expect(schema.check({ jsonrpc: '2.0', id: 1, result }, 'tools/call')).toEqual([]);
      }
    }
  });

  it('gives the same output when compiled by tsc, legacy with metadata and TC39', async () => {
    const [tsx, legacy, tc39] = await Promise.all([
      listToolsWithTsx('legacy'),
      listToolsWithTsc('legacy'),
      listToolsWithTsc('tc39'),
    ]);
    expect(names(tsx.editable)).toEqual(['search', 'count', 'catalog.version', 'remove']);
    expect(legacy).toEqual(tsx);
    expect(tc39).toEqual(tsx);
    // Two tsc runs and three server processes: allow for a loaded machine.
  }, 90_000);
});

/** A class decorated the way TC39 decorators do it: `(value, context)` and `Symbol.metadata`. */
function decorateTc39(
  cls: Function,
  methods: { name: string; isStatic: boolean; options?: Parameters<typeof Tool>[0] }[],
  parentMetadata: object | null = null,
) {
  const metadata = Object.create(parentMetadata) as object;
  for (const { name, isStatic, options } of methods) {
    const value = (isStatic ? cls : cls.prototype)[name as keyof typeof cls];
    const context = {
      kind: 'method',
      name,
      static: isStatic,
      private: false,
      metadata,
      addInitializer() {},
    };
    (Tool(options) as (value: unknown, context: unknown) => void)(value, context);
  }
  Object.defineProperty(cls, Symbol.metadata, { value: metadata, configurable: true });
  return metadata;
}

async function listed(providers: Provider[]) {
  const client = await connectTestClient(createServer({ name: 'modes', version: '1', providers }));
  try {
    return (await client.listTools()).tools.map((t: { name: string }) => t.name);
  } finally {
    await client.close();
  }
}

describe('TC39 calls in process', () => {
  it('records methods per class; statics are ordered as legacy decorators order them', async () => {
    class Manual {
      static s1() {
        return 's1';
      }
      a() {
        return 'a';
      }
      static s2() {
        return 's2';
      }
      b() {
        return 'b';
      }
    }
    // TC39 runs static method decorators before instance ones; legacy runs instance ones first.
    decorateTc39(Manual, [
      { name: 's1', isStatic: true },
      { name: 's2', isStatic: true },
      { name: 'a', isStatic: false },
      { name: 'b', isStatic: false },
    ]);
    class Legacy {
      @Tool() static s1() {
        return 's1';
      }
      @Tool() a() {
        return 'a';
      }
      @Tool() static s2() {
        return 's2';
      }
      @Tool() b() {
        return 'b';
      }
    }
    expect(await listed([Manual])).toEqual(['a', 'b', 's1', 's2']);
    expect(await listed([Legacy])).toEqual(['a', 'b', 's1', 's2']);
  });

  it('inherits through the metadata chain without leaking into the parent', async () => {
    class Parent {
      base() {
        return 'base';
      }
    }
    const parentMetadata = decorateTc39(Parent, [{ name: 'base', isStatic: false }]);
    class Child extends Parent {
      extra() {
        return 'extra';
      }
    }
    decorateTc39(Child, [{ name: 'extra', isStatic: false }], parentMetadata);
    // No decorators, hence no own Symbol.metadata: it inherits Parent's through the constructor.
    class Undecorated extends Parent {}
    expect(await listed([Child])).toEqual(['base', 'extra']);
    expect(await listed([Undecorated])).toEqual(['base']);
    expect(await listed([Parent])).toEqual(['base']);
  });

  it('refuses non-methods and a missing metadata object with a clear message', () => {
    const tool = Tool() as (value: unknown, context: unknown) => void;
    expect(() =>
      tool(undefined, { kind: 'field', name: 'x', static: false, metadata: {} }),
    ).toThrow(new TypeError('@Tool decorates methods, not a field'));
    expect(() =>
      tool(() => 1, { kind: 'method', name: 'x', static: false, metadata: undefined }),
    ).toThrow(
      new TypeError(
        '@Tool: the compiler passed no decorator metadata object. ' +
          'Import @mcp-fw/core before the decorated class is evaluated.',
      ),
    );
  });

  it('@Arg called with TC39 arguments explains that it needs experimentalDecorators', () => {
    const message =
      '@Arg(\'x\') is a parameter decorator and needs "experimentalDecorators": true in tsconfig.json; ' +
      'with standard decorators declare the arguments with @Tool({ input: ... }) instead';
    const arg = Arg('x', z.string()) as unknown as (value: unknown, context: unknown) => void;
    // A TC39 compiler never calls parameter decorators; used on a method or field, this is what arrives.
    const onMethod = { kind: 'method', name: 'm', static: false, metadata: {} };
    const onField = { kind: 'field', name: 'm', static: false, metadata: {} };
    expect(() => arg(() => 1, onMethod)).toThrow(new TypeError(message));
    expect(() => arg(undefined, onField)).toThrow(new TypeError(message));
  });
});

describe('metadata is per class', () => {
  it('two servers with different classes in one process see only their own tools', async () => {
    class Alpha {
      @Tool({ input: z.object({}) }) alpha() {
        return 'alpha';
      }
    }
    class Beta {
      @Tool({ input: z.object({}) }) beta() {
        return 'beta';
      }
    }
    expect(await listed([Alpha])).toEqual(['alpha']);
    expect(await listed([Beta])).toEqual(['beta']);
    expect(await listed([Alpha, Beta])).toEqual(['alpha', 'beta']);
  });

  it('a subclass adds tools without leaking them into its parent', async () => {
    class Base {
      @Tool() base() {
        return 'base';
      }
    }
    class Derived extends Base {
      @Tool() derived() {
        return 'derived';
      }
    }
    class Plain extends Base {}
    expect(await listed([Derived])).toEqual(['base', 'derived']);
    expect(await listed([Plain])).toEqual(['base']);
    expect(await listed([Base])).toEqual(['base']);
    expect(() => createServer({ name: 'x', version: '1', providers: [Base, Derived] })).toThrow(
      StartupError,
    );
  });
});
