import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Plugin, PluginBuild } from 'esbuild';
import { atTopLevel } from './top-level.js';

// `createRequire(import.meta.url)`, called at once or kept under a name. @mcp-fw/core loads
// reflect-metadata, Ajv and the optional schema converters this way: lazily, and without Node's
// scan of CommonJS for named exports. esbuild cannot see through it.
const CREATE_REQUIRE = /\bcreateRequire\(\s*import\.meta\.url\s*\)/;
const NAMED = /\b(?:const|let|var)\s+([\w$]+)\s*=\s*createRequire\(\s*import\.meta\.url\s*\)/g;

/** Where a target kept out of the bundle is loaded from: its lazy file and its loader's key. */
export interface LazyLoader {
  readonly file: string;
  readonly key: string;
}

/** What {@link lazyRequirePlugin} is told, and tells, about the lazy requires it rewrites. */
export interface LazyRequires {
  /**
   * ES modules the bundle runs at start anyway (another module imports them): a lazy require of
   * one of these becomes a reference to its namespace instead (see {@link lazyRequirePlugin}).
   */
  readonly eager?: ReadonlySet<string>;
  /**
   * Hears every file a lazy require resolves to, by absolute path, and whether the require is in
   * its module's top-level code (top-level.ts): then it runs whenever that module does.
   */
  readonly onTarget?: (path: string, topLevel: boolean) => void;
  /**
   * Targets kept out of this bundle, by absolute path: a lazy require of one becomes a call of
   * its loader, `require(file)[key]()`, where `file` is the lazy file that holds it, relative to
   * the bundle (`./<name>.lazy/ajv.cjs`, see lazy-file.ts).
   */
  readonly split?: ReadonlyMap<string, LazyLoader>;
}

/**
 * Lets the bundle hold what modules load through `createRequire(import.meta.url)`: each call with
 * a literal specifier becomes a plain `require()` of the resolved file, which esbuild bundles
 * where it stands, so it still runs only when called. A specifier that does not resolve (an
 * optional peer that is not installed) is left to the runtime, as before.
 *
 * A target in `requires.eager` becomes `import * as` of the file instead. esbuild initialises a
 * required ES module lazily: it wraps the module, and every ES module it imports, in an
 * initialiser (`__esm`) that each importer calls. For zod, which core requires (`zod/v4/core`,
 * for zod/mini) and a zod server imports, that wraps all of zod's core and locales, and the
 * wrapped top levels cost a start more than the same modules run in place (issue 40).
 */
export function lazyRequirePlugin(requires: LazyRequires = {}): Plugin {
  return {
    name: 'mcp-fw-lazy-require',
    setup(build) {
      const files = new Set([...(requires.split?.values() ?? [])].map((loader) => loader.file));
      // Required at run time from beside the bundle, never bundled.
      if (files.size > 0)
        build.onResolve({ filter: LAZY_FILE }, (args) =>
          files.has(args.path) ? { path: args.path, external: true } : undefined,
        );
      build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!CREATE_REQUIRE.test(text)) return undefined;
        return {
          contents: await rewrite(build, text, dirname(args.path), requires),
          loader: 'js',
        };
      });
    },
  };
}

async function rewrite(
  build: PluginBuild,
  text: string,
  resolveDir: string,
  requires: LazyRequires,
): Promise<string> {
  const callees = [
    CREATE_REQUIRE.source,
    ...[...text.matchAll(NAMED)].map((m) => `\\b${m[1]!.replaceAll('$', '\\$')}`),
  ];
  const call = new RegExp(`(?:${callees.join('|')})\\(\\s*(['"])([^'"\\n]+)\\1\\s*\\)`, 'g');
  const targets = new Map<string, string | undefined>();
  for (const match of text.matchAll(call)) {
    const specifier = match[2]!;
    if (specifier.startsWith('node:')) continue;
    if (!targets.has(specifier)) {
      // As an import would resolve it: a dual package then comes in once, as the ES module build
      // the code's own imports use (one zod, one registry of schema metadata).
      const resolved = await build.resolve(specifier, { kind: 'import-statement', resolveDir });
      targets.set(
        specifier,
        resolved.errors.length > 0 || resolved.external ? undefined : resolved.path,
      );
    }
    const path = targets.get(specifier);
    if (path !== undefined) requires.onTarget?.(path, atTopLevel(text, match.index));
  }
  const namespaces: string[] = [];
  const replaced = text.replace(call, (whole, _quote: string, specifier: string) => {
    const path = targets.get(specifier);
    if (path === undefined) return whole;
    const loader = requires.split?.get(path);
    if (loader !== undefined)
      return `require(${JSON.stringify(loader.file)})[${JSON.stringify(loader.key)}]()`;
    if (!requires.eager?.has(path)) return `require(${JSON.stringify(path)})`;
    const name = `__mcpfwEager${namespaces.length}`;
    namespaces.push(`import * as ${name} from ${JSON.stringify(path)};`);
    return name;
  });
  // Imports are hoisted, so prepending them keeps the file's own order of evaluation.
  return namespaces.length === 0 ? replaced : `${namespaces.join('\n')}\n${replaced}`;
}

/** A lazy file as the bundle requires it, `./<name>.lazy/<file>.cjs` (lazy-file.ts). */
export const LAZY_FILE = /^\.\/[^/]+\.lazy\/[^/]+\.cjs$/;

/**
 * The ES modules a first build's bundle runs at start: those its entry reaches through `import`
 * statements alone (what only a require reaches is initialised lazily). Paths as `absolute` makes
 * them from the metafile's.
 */
export function eagerModules(
  metafile: import('esbuild').Metafile,
  absolute: (path: string) => string,
): Set<string> {
  const seen = new Set<string>();
  const queue = Object.values(metafile.outputs).flatMap((output) =>
    output.entryPoint === undefined ? [] : [output.entryPoint],
  );
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) queue.push(imported.path);
    }
  }
  const eager = new Set<string>();
  for (const path of seen) if (metafile.inputs[path]?.format === 'esm') eager.add(absolute(path));
  return eager;
}
