import { resolve } from 'node:path';
import type { Metafile } from 'esbuild';
import type { LazyLoader } from './lazy-require-plugin.js';

// The packages core requires lazily (yaml, Ajv and its formats, @cfworker/json-schema, the zod
// converters) are about a third of a bundled server, and a stdio start of most servers runs none
// of them. Inside the bundle they would still be read, copied into a string and handed to V8 at
// every start (issue 40), so they go to CommonJS files in `<name>.lazy/` beside it, which the
// bundle requires on first use. One file per group of targets that share a module (ajv-formats and
// Ajv's 2020 draft need the same Ajv): a server that needs Ajv at start (a JSON Schema tool) then
// reads Ajv's file alone, and no module is in two files, where it would run twice, as two modules
// with separate state. For the same reason a target that shares a module with the bundle stays in
// the bundle.

/** Absolute paths from a metafile's (relative to the working directory). */
export type Absolute = (path: string) => string;
const fromCwd: Absolute = (path) => resolve(path);

/** Each target's module graph in `lazy` (a build of all targets), as absolute paths. */
export function closures(
  lazy: Metafile,
  targets: Iterable<string>,
  absolute: Absolute = fromCwd,
): Map<string, Set<string>> {
  const byPath = new Map(Object.keys(lazy.inputs).map((input) => [absolute(input), input]));
  const graphs = new Map<string, Set<string>>();
  for (const target of targets) {
    const start = byPath.get(target);
    const queue = start === undefined ? [] : [start];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const input = queue.pop()!;
      if (seen.has(input)) continue;
      seen.add(input);
      for (const imported of lazy.inputs[input]?.imports ?? [])
        if (!imported.external) queue.push(imported.path);
    }
    graphs.set(target, new Set([...seen].map(absolute)));
  }
  return graphs;
}

/** The targets whose graph reaches a module the bundle (its metafile) holds too. */
export function sharedTargets(
  bundle: Metafile,
  graphs: ReadonlyMap<string, ReadonlySet<string>>,
  absolute: Absolute = fromCwd,
): Set<string> {
  const held = new Set(Object.keys(bundle.inputs).map(absolute));
  const shared = new Set<string>();
  for (const [target, graph] of graphs)
    for (const path of graph)
      if (held.has(path)) {
        shared.add(target);
        break;
      }
  return shared;
}

/**
 * The lazy files for `graphs`: targets whose graphs share a module go to one file, named after
 * a package it holds (`ajv.cjs`); a loader per target, keyed by its package path.
 */
export function lazyLayout(
  graphs: ReadonlyMap<string, ReadonlySet<string>>,
  dir: string,
): { loaders: Map<string, LazyLoader>; files: Map<string, [path: string, key: string][]> } {
  const groups: string[][] = [];
  const groupOf = new Map<string, string[]>();
  for (const target of [...graphs.keys()].sort()) {
    const joined = new Set<string[]>();
    for (const path of graphs.get(target)!) {
      const group = groupOf.get(path);
      if (group) joined.add(group);
    }
    const group = [target, ...[...joined].flat()];
    for (const old of joined) groups.splice(groups.indexOf(old), 1);
    groups.push(group);
    for (const member of group) for (const path of graphs.get(member)!) groupOf.set(path, group);
  }
  const loaders = new Map<string, LazyLoader>();
  const files = new Map<string, [string, string][]>();
  for (const group of groups.sort((a, b) => (a[0]! < b[0]! ? -1 : 1))) {
    const sorted = group.sort();
    // The group's shortest package name: `ajv` for Ajv, its 2020 draft and ajv-formats.
    const base = sorted
      .map(packageName)
      .reduce((a, b) => (b.length < a.length ? b : a))
      .replace(/[^\w.-]+/g, '-');
    let file = `${dir}/${base}.cjs`;
    for (let n = 2; files.has(file); n++) file = `${dir}/${base}-${n}.cjs`;
    const keys = new Set<string>();
    const entries: [string, string][] = [];
    for (const target of sorted) {
      let key = packagePath(target);
      for (let n = 2; keys.has(key); n++) key = `${packagePath(target)}#${n}`;
      keys.add(key);
      entries.push([target, key]);
      loaders.set(target, { file: `./${file}`, key });
    }
    files.set(file, entries);
  }
  return { loaders, files };
}

/** The lazy file's entry: one loader per target, each requiring its target only when called. */
export function lazyEntrySource(
  entries: readonly (readonly [path: string, key: string])[],
): string {
  const loaders = entries.map(
    ([path, key]) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(path)}),`,
  );
  return `module.exports = {\n${loaders.join('\n')}\n};\n`;
}

// `ajv/dist/2020.js` for …/node_modules/ajv/dist/2020.js: readable in a stack, no build path.
function packagePath(path: string): string {
  const parts = path.replaceAll('\\', '/').split('/node_modules/');
  return parts.length > 1 ? parts.pop()! : parts[0]!.split('/').slice(-2).join('/');
}

function packageName(path: string): string {
  const parts = packagePath(path).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]!.slice(1)}-${parts[1]}` : parts[0]!;
}
