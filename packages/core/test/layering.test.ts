import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';
import {
  code,
  importsOf,
  nodeUses,
  parseImports,
  importTarget,
  resolveImport,
  resolveSubpath,
  runtimeGraph,
  sourceFiles,
  SRC,
  stripComments,
  SUBPATH_IMPORTS,
  type Import,
  type Runtime,
} from './support/source-graph.ts';

// The import rules of docs/architecture.md, read from the source so they stay true.

/** The package's entry points (`exports` in package.json), as source files: `./stdio` → `stdio.ts`. */
const ENTRIES = entryPoints(
  JSON.parse(readFileSync(join(REPO_ROOT, 'packages/core/package.json'), 'utf8')).exports,
);

/** Entry points that exist to use Node (stdio, node:http, the command line); every other one is runtime-neutral. */
const NODE_ENTRIES = new Set(['stdio.ts', 'stdio-channel.ts', 'node.ts', 'serve.ts', 'main.ts']);

/**
 * Composition roots may import everything: the entry points, `server.ts` (what `createServer`
 * wires together), `servable.ts` (types only: what a transport needs of a server) and
 * `http-rate-limit.ts` (the HTTP handler's endpoint limit: protocol's rate-limit store keyed by
 * an HTTP request) and `skills-folder.ts` (`loadSkills` of the Node entry: a skills folder read
 * with node:fs into the registry's skill sources, at startup). Behaviour lives in a layer and
 * follows its rules.
 */
const ROOTS = new Set([
  ...ENTRIES,
  'server.ts',
  'servable.ts',
  'http-rate-limit.ts',
  'skills-folder.ts',
]);

/** Per layer: the layers it may import values from, and those it may import types from. */
const RULES: Record<string, { values: string[]; types: string[] }> = {
  schema: { values: [], types: [] },
  decorators: { values: [], types: ['schema'] },
  registry: { values: ['schema', 'decorators'], types: ['schema', 'decorators'] },
  jsonrpc: { values: [], types: [] },
  // Store contracts (sessions, event logs, bus): a leaf both sides of the engine may ask.
  stores: { values: [], types: [] },
  protocol: { values: ['jsonrpc', 'registry', 'stores'], types: ['jsonrpc', 'registry', 'stores'] },
  transports: { values: ['jsonrpc', 'stores'], types: ['jsonrpc', 'stores'] },
};

/** Node-only modules the runtime-neutral root entry must never load. */
const NODE_ONLY = [
  'transports/stdio.ts',
  'transports/stdout-guard.ts',
  'stdio.ts',
  'skills-folder.ts',
];

function entryPoints(exports: Record<string, Record<string, string>>): string[] {
  return Object.entries(exports).map(([subpath, conditions]) => {
    const source = conditions['@mcp-fw/source'];
    const name = source.replace(/^\.\/src\//, '').replace(/\.ts$/, '');
    // Each entry's three conditions name the same module: source, its types, its build.
    expect([subpath, conditions.types, conditions.default]).toEqual([
      name === 'index' ? '.' : `./${name}`,
      `./dist/${name}.d.ts`,
      `./dist/${name}.js`,
    ]);
    return `${name}.ts`;
  });
}

/** `registry/scan.ts` → `registry`; composition roots and other top-level files → their name. */
function layerOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
}

/** The imports of `file` that break its layer's rule, as `file: import '…' …` lines. */
function violations(file: string, imports: readonly Import[]): string[] {
  const layer = layerOf(file);
  const rule = RULES[layer];
  if (ROOTS.has(file) || !rule) return [];
  const found: string[] = [];
  for (const { specifier, typeOnly } of imports) {
    if (specifier.startsWith('@mcp-fw/')) {
      found.push(
        `${file}: import '${specifier}' goes through the package entry; import the layer relatively`,
      );
      continue;
    }
    // A subpath import (`#name`) is held to the rule in each of its variants.
    const targets = new Set(
      (['neutral', 'node'] as const).map((runtime) => importTarget(file, specifier, runtime)),
    );
    for (const target of targets) {
      if (target === undefined) continue;
      const targetLayer = layerOf(target);
      if (targetLayer === layer && target.includes('/')) continue;
      if (!(typeOnly ? rule.types : rule.values).includes(targetLayer)) {
        const kind = typeOnly ? 'import type' : 'import';
        found.push(`${file}: ${kind} '${specifier}' (${target}) is not allowed in ${layer}/`);
      }
    }
  }
  return found;
}

/** Where the eras live: nothing outside knows their names, revision strings or envelope keys. */
const ERAS = 'protocol/eras/';

/**
 * A revision string (`2025-11-25`), a key of the stateless envelope (`io.modelcontextprotocol/…`)
 * or an era's name as a string (`'legacy'`, `"modern"`): outside the eras, code holds the `Era`
 * object and asks it. The MCP Apps extension id (`io.modelcontextprotocol/ui`) is the same in
 * every era, so it is not one of them.
 */
const ERA_LITERAL =
  /\b20\d\d-[01]\d-[0-3]\d\b|io\.modelcontextprotocol\/(?!ui\b)|(['"`])(legacy|modern)\1/;

/** Code lines of `file` (comments stripped) that spell an era's name, revision or envelope key. */
function eraLiterals(file: string, text: string): string[] {
  if (file.startsWith(ERAS)) return [];
  return text
    .split('\n')
    .filter((line) => ERA_LITERAL.test(line))
    .map((line) => `${file}: ${line.trim()}`);
}

/** `protocol/eras/legacy/x.ts` → `legacy`; the shared files directly in `protocol/eras/` → undefined. */
function eraFolderOf(file: string): string | undefined {
  return file.startsWith(ERAS) ? /^([^/]+)\//.exec(file.slice(ERAS.length))?.[1] : undefined;
}

/** Imports (types included) from one era's folder into another's: eras share only `protocol/eras/*.ts`. */
function eraCrossings(file: string, imports: readonly Import[]): string[] {
  const own = eraFolderOf(file);
  if (own === undefined) return [];
  return imports
    .filter((i) => i.specifier.startsWith('.'))
    .map((i) => ({ ...i, folder: eraFolderOf(resolveImport(file, i.specifier)) }))
    .filter((i) => i.folder !== undefined && i.folder !== own)
    .map((i) => `${file}: '${i.specifier}' reaches into eras/${i.folder}/`);
}

/** Every Node-only use `entry` reaches on `runtime`, by file. */
function nodeReachable(entry: string, runtime: Runtime = 'neutral'): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of runtimeGraph(entry, runtime).keys()) {
    const uses = nodeUses(code(file));
    if (uses.length > 0) found[file] = uses;
  }
  return found;
}

const FILES = sourceFiles(SRC);

describe('core layering', () => {
  it('the import parser and the rules catch what they should (self-check)', () => {
    const sample = stripComments(`
      /** @example import { x } from '../protocol/index.js'; console.log(x); */
      import 'reflect-metadata';
      import type { A } from '../schema/index.js';
      import {
        B,
        type C,
      } from '../schema/json-schema.js';
      export * from './tool.js';
      export { D } from '../registry/index.js'; // a trailing comment from '../protocol/x.js'
      const later = () => import('../transports/stdio.js');
      import { E } from '@mcp-fw/core';
      const url = 'https://example.com/'; // import('../jsonrpc/index.js')
    `);
    const imports = parseImports(sample);
    expect(imports).toEqual([
      { specifier: 'reflect-metadata', typeOnly: false },
      { specifier: '../schema/index.js', typeOnly: true },
      { specifier: '../schema/json-schema.js', typeOnly: false },
      { specifier: './tool.js', typeOnly: false },
      { specifier: '../registry/index.js', typeOnly: false },
      { specifier: '@mcp-fw/core', typeOnly: false },
      { specifier: '../transports/stdio.js', typeOnly: false },
    ]);
    expect(violations('decorators/x.ts', imports)).toEqual([
      "decorators/x.ts: import '../schema/json-schema.js' (schema/json-schema.ts) is not allowed in decorators/",
      "decorators/x.ts: import '../registry/index.js' (registry/index.ts) is not allowed in decorators/",
      "decorators/x.ts: import '@mcp-fw/core' goes through the package entry; import the layer relatively",
      "decorators/x.ts: import '../transports/stdio.js' (transports/stdio.ts) is not allowed in decorators/",
    ]);
    expect(
      violations('protocol/x.ts', [{ specifier: '../schema/index.js', typeOnly: true }]),
    ).toEqual([
      "protocol/x.ts: import type '../schema/index.js' (schema/index.ts) is not allowed in protocol/",
    ]);
    expect(violations('server.ts', imports)).toEqual([]);
    expect(/\bconsole\s*\.\s*(log|info|debug)\b/.test(sample)).toBe(false);
  });

  it('finds the source tree', () => {
    expect(FILES).toContain('index.ts');
    expect(FILES).toContain('registry/registry.ts');
    expect(importsOf('server.ts').map((i) => i.specifier)).toContain('./registry/index.js');
  });

  it('every file belongs to a known layer or is a composition root', () => {
    const unknown = FILES.filter((f) => !ROOTS.has(f) && !(layerOf(f) in RULES));
    expect(unknown, 'add new layers or entry points to the rules in layering.test.ts').toEqual([]);
  });

  it('no file imports a layer it must not', () => {
    expect(FILES.flatMap((file) => violations(file, importsOf(file)))).toEqual([]);
  });

  it('every relative and subpath (#) import resolves to a source file', () => {
    const missing = FILES.flatMap((file) =>
      importsOf(file)
        .filter((i) => /^[.#]/.test(i.specifier))
        .filter((i) =>
          (['neutral', 'node'] as const).some((runtime) => {
            const target = importTarget(file, i.specifier, runtime);
            return target === undefined || !existsSync(join(SRC, target));
          }),
        )
        .map((i) => `${file}: '${i.specifier}'`),
    );
    expect(missing).toEqual([]);
  });

  it('reads the entry points from package.json exports', () => {
    expect(ENTRIES).toEqual(
      expect.arrayContaining([
        'index.ts',
        'stdio.ts',
        'testing.ts',
        'transport.ts',
        'http.ts',
        'node.ts',
        'serve.ts',
        'main.ts',
      ]),
    );
    for (const entry of NODE_ENTRIES) expect(ENTRIES).toContain(entry);
  });

  it('no runtime-neutral entry point loads Node-only transport modules', () => {
    const neutral = ENTRIES.filter((entry) => !NODE_ENTRIES.has(entry));
    expect(neutral).toContain('index.ts');
    for (const entry of neutral) {
      const seen = runtimeGraph(entry);
      const reached = NODE_ONLY.filter((f) => seen.has(f)).map((f) => seen.get(f));
      expect(reached, entry).toEqual([]);
    }
    expect(runtimeGraph('index.ts').size).toBeGreaterThan(10);
  });

  it('@mcp-fw/core/transport loads no node:* module and uses no Node global', () => {
    const seen = runtimeGraph('transport.ts');
    expect(seen.size).toBeGreaterThan(5);
    expect(nodeReachable('transport.ts')).toEqual({});
  });

  it('the root entry loads no node:* module and uses no Node global', () => {
    expect(nodeReachable('index.ts')).toEqual({});
  });

  it("on Node, the root entry's Node-only code is only the `node` variants of package.json imports", () => {
    const nodeVariants = Object.keys(SUBPATH_IMPORTS).map((name) => resolveSubpath(name, 'node'));
    for (const file of Object.keys(nodeReachable('index.ts', 'node')))
      expect(nodeVariants, `${file} uses Node outside a \`node\` variant`).toContain(file);
  });

  it('package.json imports name a source file and its build for Node and for every other runtime', () => {
    expect(Object.keys(SUBPATH_IMPORTS).length).toBeGreaterThan(0);
    for (const [name, conditions] of Object.entries(SUBPATH_IMPORTS)) {
      const neutral = resolveSubpath(name, 'neutral') as string;
      const node = resolveSubpath(name, 'node') as string;
      expect(neutral, name).not.toBe(node);
      const built = (file: string) => `./dist/${file.replace(/\.ts$/, '.js')}`;
      expect(conditions, name).toEqual({
        node: { '@mcp-fw/source': `./src/${node}`, default: built(node) },
        '@mcp-fw/source': `./src/${neutral}`,
        default: built(neutral),
      });
      for (const file of [neutral, node]) expect(existsSync(join(SRC, file)), file).toBe(true);
    }
  });

  it('outside protocol/eras/ no code spells an era name, a revision or an envelope key', () => {
    expect(FILES.flatMap((file) => eraLiterals(file, code(file)))).toEqual([]);
  });

  it('the era folders do not import each other', () => {
    const eraFiles = FILES.filter((file) => eraFolderOf(file) !== undefined);
    expect(new Set(eraFiles.map(eraFolderOf))).toEqual(new Set(['legacy', 'modern']));
    expect(eraFiles.flatMap((file) => eraCrossings(file, importsOf(file)))).toEqual([]);
  });

  it('the era and Node rules catch what they should (self-check)', () => {
    const sample = stripComments(`
      /** Under 2026-07-28 the envelope key io.modelcontextprotocol/logLevel sets it. */
      const versions = ['2025-11-25'];
      const key = 'io.modelcontextprotocol/protocolVersion';
      if (era === 'modern') route(era);
      connect(channel, "legacy");
      const ok = 'nothing era-specific'; // but a 2025-06-18 comment, or 'legacy', is fine
      const id = \`modern_\${seq}\`, legacyEra = era.legacy, word = 'modernise';
    `);
    expect(eraLiterals('protocol/x.ts', sample)).toEqual([
      "protocol/x.ts: const versions = ['2025-11-25'];",
      "protocol/x.ts: const key = 'io.modelcontextprotocol/protocolVersion';",
      "protocol/x.ts: if (era === 'modern') route(era);",
      'protocol/x.ts: connect(channel, "legacy");',
    ]);
    expect(eraLiterals('protocol/eras/modern/x.ts', sample)).toEqual([]);
    const crossing = parseImports(`
      import type { Era } from '../era.js';
      import { LEGACY } from '../legacy/era.js';
      import { META } from './envelope.js';
    `);
    expect(eraCrossings('protocol/eras/modern/x.ts', crossing)).toEqual([
      "protocol/eras/modern/x.ts: '../legacy/era.js' reaches into eras/legacy/",
    ]);
    expect(
      eraCrossings(
        'protocol/eras/select.ts',
        parseImports(`import { LEGACY } from './legacy/era.js';`),
      ),
    ).toEqual([]);
    expect(
      nodeUses(`
        import { createRequire } from 'node:module';
        import type { Socket } from 'node:net';
        let crypto: typeof import('node:crypto');
        process.stderr.write(Buffer.from('x').toString('base64'));
        const subprocess = { env: 1 }; subprocess.env;
      `),
    ).toEqual(["import 'node:module'", 'process.stderr', 'Buffer.from']);
    // Subpath imports: the root entry's graph takes the variant of the runtime it is read for.
    const neutral = runtimeGraph('index.ts');
    const onNode = runtimeGraph('index.ts', 'node');
    expect(neutral.has('schema/libraries.ts')).toBe(true);
    expect(neutral.has('schema/libraries-node.ts')).toBe(false);
    expect(onNode.has('schema/libraries-node.ts')).toBe(true);
    expect(nodeReachable('index.ts', 'node')).toHaveProperty(
      ['schema/libraries-node.ts'],
      ["import 'node:module'"],
    );
    expect(importTarget('x.ts', '#not-declared', 'neutral')).toBeUndefined();
    expect(
      violations('decorators/x.ts', [{ specifier: '#schema-libraries', typeOnly: false }]),
    ).toEqual([
      "decorators/x.ts: import '#schema-libraries' (schema/libraries.ts) is not allowed in decorators/",
      "decorators/x.ts: import '#schema-libraries' (schema/libraries-node.ts) is not allowed in decorators/",
    ]);
  });

  it('no console.log/info/debug in core: stdout belongs to stdio frames', () => {
    const hits = FILES.flatMap((file) =>
      code(file)
        .split('\n')
        .filter((line) => /\bconsole\s*\.\s*(log|info|debug)\b/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(hits).toEqual([]);
  });
});
