import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';
import { parseImports, stripComments, type Import } from './support/source-graph.ts';

// No import cycle among the source files of any package, type-only imports included; and the
// layers of protocol/, bottom first, as docs/guide/architecture.md lists them: a file imports
// only from its own layer or those below. The docs' table is the rule: this test reads it.

/** A package's source files (absolute paths) and what each imports among them. */
type Graph = Map<string, string[]>;

/** Every `.ts` file under `dir` (absolute paths). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The files of `root`'s package an import of `file` names: a relative path, or a subpath
 * import (`#name`, package.json `imports`) in every variant it has (each runtime's branch).
 */
function targetsOf(file: string, { specifier }: Import, subpaths: Record<string, unknown>) {
  if (specifier.startsWith('.')) return [resolve(dirname(file), specifier).replace(/\.js$/, '.ts')];
  if (!specifier.startsWith('#') || subpaths[specifier] === undefined) return [];
  const leaves: string[] = [];
  const walk = (branch: unknown, key: string): void => {
    if (typeof branch === 'string') {
      if (key === '@mcp-fw/source') leaves.push(branch);
    } else if (branch && typeof branch === 'object')
      for (const [k, v] of Object.entries(branch)) walk(v, k);
  };
  walk(subpaths[specifier], '');
  return leaves.map((source) => resolve(subpaths.root as string, source));
}

/** The import graph of the `.ts` files under `srcDir`, whose package.json is one folder up. */
function graphOf(srcDir: string, read = (file: string) => readFileSync(file, 'utf8')): Graph {
  const files = tsFiles(srcDir);
  const known = new Set(files);
  let subpaths: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse(read(join(srcDir, '../package.json')));
    subpaths = { ...pkg.imports, root: join(srcDir, '..') };
  } catch {
    // No package.json (a planted graph): relative imports only.
  }
  const graph: Graph = new Map();
  for (const file of files) {
    const targets = parseImports(stripComments(read(file))).flatMap((i) =>
      targetsOf(file, i, subpaths),
    );
    graph.set(file, [...new Set(targets.filter((t) => known.has(t)))]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file that imports itself (Tarjan). */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const PACKAGES = join(REPO_ROOT, 'packages');
const SOURCE_DIRS = readdirSync(PACKAGES)
  .map((name) => join(PACKAGES, name, 'src'))
  .filter((dir) => {
    try {
      return readdirSync(dir).length > 0;
    } catch {
      return false;
    }
  });

const shown = (files: string[]) => files.map((f) => relative(REPO_ROOT, f).replaceAll('\\', '/'));

// ---- the layers of protocol/, read from the docs ----

const ARCHITECTURE = join(REPO_ROOT, 'docs/guide/architecture.md');
const PROTOCOL = join(PACKAGES, 'core/src/protocol');
const MARKER = '<!-- protocol-layers:';

interface Layer {
  readonly name: string;
  /** Files (`hub.ts`) and folders (`guards/`) under protocol/. */
  readonly paths: readonly string[];
}

/** The table after the marker in `markdown`, bottom layer first: name, then backticked paths. */
function layersIn(markdown: string): Layer[] {
  const at = markdown.indexOf(MARKER);
  if (at < 0) return [];
  const rows = markdown
    .slice(at)
    .split('\n')
    .slice(1)
    .filter(
      (line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l.startsWith('|')),
    );
  return rows
    .slice(2)
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .map((cells) => ({
      name: cells[1],
      paths: [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]),
    }));
}

/** The index of the layer `file` (relative to protocol/) belongs to: its most specific entry. */
function layerOf(layers: readonly Layer[], file: string): number | undefined {
  let best: number | undefined;
  let length = -1;
  layers.forEach((layer, i) => {
    for (const path of layer.paths) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (matches && path.length > length) [best, length] = [i, path.length];
    }
  });
  return best;
}

/** Imports (types included) of a protocol file from a layer above its own, as messages. */
function upward(layers: readonly Layer[], graph: Graph, root: string): string[] {
  const rel = (f: string) => relative(root, f).replaceAll('\\', '/');
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${root}/`)) continue;
    const own = layerOf(layers, rel(file));
    for (const target of targets) {
      if (!target.startsWith(`${root}/`)) continue;
      const theirs = layerOf(layers, rel(target));
      if (own !== undefined && theirs !== undefined && theirs > own)
        found.push(
          `${rel(file)} (${layers[own].name}) imports ${rel(target)} (${layers[theirs].name})`,
        );
    }
  }
  return found;
}

/**
 * Fields a layer adds to a lower layer's interface (`declare module` — the record's `era`, the
 * core's services): only code of that layer or above may read them, else the augmentation would
 * hide an upward dependency from the import graph. Returns the reads from below, as messages.
 */
function readsFromBelow(layers: readonly Layer[], sources: ReadonlyMap<string, string>): string[] {
  const added: { field: string; layer: number; file: string }[] = [];
  for (const [file, code] of sources) {
    const layer = layerOf(layers, file);
    for (const block of code.matchAll(/\bdeclare\s+module\s+['"][^'"]+['"]\s*\{([\s\S]*?)\n\}/g))
      for (const field of block[1].matchAll(/^\s*(?:readonly\s+)?(\w+)\??\s*:/gm))
        if (layer !== undefined) added.push({ field: field[1], layer, file });
  }
  const found: string[] = [];
  for (const [file, code] of sources) {
    const layer = layerOf(layers, file);
    for (const a of added)
      if (layer !== undefined && layer < a.layer && new RegExp(`\\.${a.field}\\b`).test(code))
        found.push(`${file} (${layers[layer].name}) reads .${a.field}, added by ${a.file}`);
  }
  return found;
}

const LAYERS = layersIn(readFileSync(ARCHITECTURE, 'utf8'));
const CORE = graphOf(join(PACKAGES, 'core/src'));
const PROTOCOL_FILES = [...CORE.keys()]
  .filter((f) => f.startsWith(`${PROTOCOL}/`))
  .map((f) => relative(PROTOCOL, f).replaceAll('\\', '/'));

describe('import cycles', () => {
  it('no import cycle among the source files of any package, type-only imports included', () => {
    expect(SOURCE_DIRS.length).toBeGreaterThanOrEqual(6);
    let files = 0;
    const found: string[][] = [];
    for (const dir of SOURCE_DIRS) {
      const graph = graphOf(dir);
      files += graph.size;
      found.push(...cycles(graph).map(shown));
    }
    expect(files).toBeGreaterThan(300);
    expect(found, 'move the type a lower file needs into that file (or one below it)').toEqual([]);
  });

  describe('the check can fail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-cycle-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('finds a planted cycle in a graph, and a file that imports itself', () => {
      const graph: Graph = new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', []],
        ['e', ['e']],
        ['f', ['a']],
      ]);
      expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
      expect(
        cycles(
          new Map([
            ['a', ['b']],
            ['b', []],
          ]),
        ),
      ).toEqual([]);
    });

    it('finds a cycle planted on disk through type-only imports, re-exports and augmentations', () => {
      const src = join(dir, 'src');
      const plant = (name: string, text: string) => {
        mkdirSync(dirname(join(src, name)), { recursive: true });
        writeFileSync(join(src, name), text);
      };
      plant('a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
      plant('b.ts', "export * from './inner/c.js';\nexport type B = string;\n");
      plant(
        'inner/c.ts',
        "// import type { X } from '../d.js'; (a comment)\nexport const c = () => import('../a.js');\n",
      );
      plant('d.ts', "declare module './e.js' {\n  interface E {\n    d: string;\n  }\n}\n");
      plant('e.ts', "import type { D } from './f.js';\nexport interface E {}\n");
      plant('f.ts', "import type {} from './d.js';\nexport type D = 1;\n");
      const found = cycles(graphOf(src)).map((c) => c.map((f) => relative(src, f)));
      expect(found.sort()).toEqual([
        ['a.ts', 'b.ts', join('inner', 'c.ts')],
        ['d.ts', 'e.ts', 'f.ts'],
      ]);
    });
  });
});

describe('the layers of protocol/ (docs/guide/architecture.md)', () => {
  it('reads five layers, bottom first, from the docs', () => {
    expect(LAYERS.map((l) => l.name)).toEqual([
      'wire shapes and records',
      'the era contract',
      'guards, input rounds, tasks, middleware, session state',
      'methods and eras',
      'connection',
    ]);
    for (const layer of LAYERS) expect(layer.paths.length, layer.name).toBeGreaterThan(0);
  });

  it('every file of protocol/ is in a layer', () => {
    expect(PROTOCOL_FILES.length).toBeGreaterThan(80);
    const unplaced = PROTOCOL_FILES.filter((f) => layerOf(LAYERS, f) === undefined);
    expect(unplaced, 'add the file (or its folder) to the table in the docs').toEqual([]);
  });

  it('every path the docs list exists', () => {
    const paths = LAYERS.flatMap((l) => l.paths);
    const missing = paths.filter((p) =>
      p.endsWith('/') ? !PROTOCOL_FILES.some((f) => f.startsWith(p)) : !PROTOCOL_FILES.includes(p),
    );
    expect(missing).toEqual([]);
  });

  it('no file of protocol/ imports from a layer above its own, type-only imports included', () => {
    expect(upward(LAYERS, CORE, PROTOCOL)).toEqual([]);
  });

  it('a field a layer adds to a lower interface is read only from that layer up', () => {
    const sources = new Map(
      PROTOCOL_FILES.map((f) => [f, stripComments(readFileSync(join(PROTOCOL, f), 'utf8'))]),
    );
    const found = readsFromBelow(LAYERS, sources);
    expect(found).toEqual([]);
    // What the rule knows of: the record's era and the services on the core.
    const planted = new Map(sources);
    planted.set('request-record.ts', `${sources.get('request-record.ts')}\nx.era.name;\n`);
    planted.set('server-core.ts', `${sources.get('server-core.ts')}\nscope.core.guards;\n`);
    expect(readsFromBelow(LAYERS, planted)).toEqual([
      'request-record.ts (wire shapes and records) reads .era, added by eras/era.ts',
      'server-core.ts (the era contract) reads .guards, added by guards/guards.ts',
    ]);
  });

  it('the layer rule can fail: a planted upward import, and the table it is read from', () => {
    const layers = layersIn(
      [
        'text',
        `${MARKER} a test table -->`,
        '| layer | owns | files |',
        '|---|---|---|',
        '| low | shapes | `shape.ts` `eras/` |',
        '| high | the rest | `eras/top.ts` `conn.ts` |',
        '',
        '| not | part | `of.ts` |',
      ].join('\n'),
    );
    expect(layers).toEqual([
      { name: 'low', paths: ['shape.ts', 'eras/'] },
      { name: 'high', paths: ['eras/top.ts', 'conn.ts'] },
    ]);
    expect(layerOf(layers, 'eras/x.ts')).toBe(0);
    expect(layerOf(layers, 'eras/top.ts')).toBe(1);
    expect(layerOf(layers, 'other.ts')).toBeUndefined();
    const root = '/p';
    const graph: Graph = new Map([
      ['/p/shape.ts', ['/p/conn.ts']],
      ['/p/conn.ts', ['/p/shape.ts', '/elsewhere.ts']],
      ['/p/eras/x.ts', ['/p/eras/top.ts']],
    ]);
    expect(upward(layers, graph, root)).toEqual([
      'shape.ts (low) imports conn.ts (high)',
      'eras/x.ts (low) imports eras/top.ts (high)',
    ]);
  });
});
