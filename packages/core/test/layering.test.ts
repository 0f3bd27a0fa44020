import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';

// The import rules of docs/architecture.md, read from the source so they stay true.
const SRC = join(REPO_ROOT, 'packages/core/src');

/** The package's entry points (`exports` in package.json), as source files: `./stdio` → `stdio.ts`. */
const ENTRIES = entryPoints(
  JSON.parse(readFileSync(join(REPO_ROOT, 'packages/core/package.json'), 'utf8')).exports,
);

/** Entry points that exist to use Node (stdio, node:http, the command line); every other one is runtime-neutral. */
const NODE_ENTRIES = new Set(['stdio.ts', 'node.ts', 'main.ts']);

/** Composition roots may import everything: the entry points, and the top-level files they share. */
const ROOTS = new Set([
  ...ENTRIES,
  'server.ts',
  'server-members.ts',
  'stdout-guard.ts',
  'http-rate-limit.ts',
  'servable.ts',
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
const NODE_ONLY = ['transports/stdio.ts', 'stdout-guard.ts', 'stdio.ts'];

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

/** Every file `entry` loads at runtime (type-only imports are erased), each with the path that reaches it. */
function runtimeGraph(entry: string): Map<string, string> {
  const seen = new Map<string, string>([[entry, entry]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (typeOnly || !specifier.startsWith('.')) continue;
      const target = resolveImport(file, specifier);
      if (seen.has(target)) continue;
      seen.set(target, `${seen.get(file)} → ${target}`);
      queue.push(target);
    }
  }
  return seen;
}

interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).replaceAll('\\', '/')] : [];
  });
}

/** Source text without comments, so JSDoc examples neither import nor log. */
function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/([;,{}()])\s*\/\/.*$/gm, '$1');
}

function code(file: string): string {
  return stripComments(readFileSync(join(SRC, file), 'utf8'));
}

function importsOf(file: string): Import[] {
  return parseImports(code(file));
}

/** Static imports and re-exports, side-effect imports and dynamic `import()`. */
function parseImports(text: string): Import[] {
  const found: Import[] = [];
  const declaration = /\b(import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(declaration))
    found.push({ specifier: m[3], typeOnly: m[2] !== undefined });
  const dynamic = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(dynamic)) found.push({ specifier: m[1], typeOnly: false });
  return found;
}

/** `registry/scan.ts` → `registry`; composition roots and other top-level files → their name. */
function layerOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
}

function resolveImport(file: string, specifier: string): string {
  const target = resolve(join(SRC, dirname(file)), specifier).replace(/\.js$/, '.ts');
  return relative(SRC, target).replaceAll('\\', '/');
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
    if (!specifier.startsWith('.')) continue;
    const target = resolveImport(file, specifier);
    const targetLayer = layerOf(target);
    if (targetLayer === layer && target.includes('/')) continue;
    if (!(typeOnly ? rule.types : rule.values).includes(targetLayer)) {
      const kind = typeOnly ? 'import type' : 'import';
      found.push(`${file}: ${kind} '${specifier}' (${target}) is not allowed in ${layer}/`);
    }
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

  it('every relative import resolves to a source file', () => {
    const missing = FILES.flatMap((file) =>
      importsOf(file)
        .filter(
          (i) =>
            i.specifier.startsWith('.') && !existsSync(join(SRC, resolveImport(file, i.specifier))),
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

  it('@mcp-fw/core/transport loads no node:* module at all', () => {
    const seen = runtimeGraph('transport.ts');
    expect(seen.size).toBeGreaterThan(5);
    const nodeImports = [...seen].flatMap(([file, path]) =>
      importsOf(file)
        .filter((i) => !i.typeOnly && i.specifier.startsWith('node:'))
        .map((i) => `${path}: '${i.specifier}'`),
    );
    expect(nodeImports).toEqual([]);
    // The check can fail: the root entry does load a node: module (createRequire).
    expect(
      [...runtimeGraph('index.ts').keys()].some((file) =>
        importsOf(file).some((i) => i.specifier.startsWith('node:')),
      ),
    ).toBe(true);
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
