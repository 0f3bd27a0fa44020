import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { dropRestatedNames } from './kept-names.js';
import { type LauncherFacts, type LazyLauncherFile, launcherSource } from './launcher-source.js';
import { closures, lazyEntrySource, lazyLayout, sharedTargets } from './lazy-file.js';
import { withModuleWrapper } from './module-wrapper.js';
import { zodLocalesEntry, zodLocalesStandIn, zodUtilFromBundle } from './zod-locales.js';
import { eagerModules, type LazyRequires, lazyRequirePlugin } from './lazy-require-plugin.js';

/** What {@link bundleServer} bundles, and where it writes. */
export interface BundleRequest {
  /** The built JavaScript entry: a module that exports the server, or a program that serves it. */
  readonly entry: string;
  /** Directory for `<name>.bundle.cjs`, `<name>.launch.cjs` and `<name>.lazy/`. */
  readonly outDir: string;
  /** Base name of the output files (default: the entry's, without extension). */
  readonly name?: string;
  /** Packages left out of the bundle and required from node_modules at run time. */
  readonly external?: readonly string[];
  /**
   * `true`: no lazy file; what a start does not run stays in the bundle (lazily initialised), one
   * file that needs no other and is plain CommonJS (no module wrapper written in), e.g. for
   * `node --build-snapshot`, whose entry cannot require files.
   */
  readonly singleFile?: boolean;
}

/** What a bundle build wrote: the bundle, its launcher and how long it took. */
export interface BundleResult {
  /** `cjs`, started through a V8 code cache on every Node; `esm` when the code has top-level await (cached on Node 22.1+ only). */
  readonly format: 'cjs' | 'esm';
  readonly bundleFile: string;
  readonly launcherFile: string;
  readonly bundleBytes: number;
  /**
   * What core requires lazily (yaml, Ajv, ...), in files of `<name>.lazy/` beside the bundle,
   * which requires each on first use (none with `singleFile`). Ship them with the bundle.
   */
  readonly lazyFiles: readonly string[];
  /** The entry exported a server, so the bundle serves it (stdio, or `--http` like `mcp-fw start`). */
  readonly serves: boolean;
}

// core reads import.meta.url (createRequire for its lazily loaded dependencies); in CommonJS
// output it becomes the bundle's own file URL.
const IMPORT_META_URL = '__mcpfw_import_meta_url';

/**
 * Bundles a built server into one CommonJS file plus a launcher that starts it through a V8 code
 * cache: one file to read and compile instead of a few hundred ESM modules, and on later starts
 * not even the compile. Identifiers are kept, so stack traces stay readable; a linked source map
 * maps them back to the build output (`node --enable-source-maps`). What core loads only on
 * first use (yaml, Ajv, ...) goes to files of `<name>.lazy/` beside the bundle, which a start
 * does not read unless it needs them: ship that folder with the bundle (or pass `singleFile`).
 *
 * @example
 * ```ts
 * const { launcherFile } = await bundleServer({ entry: 'dist/server.js', outDir: 'dist' });
 * // node dist/server.launch.cjs            → stdio
 * // node dist/server.launch.cjs --http     → http://127.0.0.1:3000/mcp
 * ```
 */
export async function bundleServer(request: BundleRequest): Promise<BundleResult> {
  // Loaded only here: the other commands never pay for esbuild.
  const esbuild = await import('esbuild');
  const name = request.name ?? basename(request.entry).replace(/\.[cm]?js$/, '');
  const launcherFile = join(request.outDir, `${name}.launch.cjs`);
  const serves = exportsServer(await entryExports(esbuild, request.entry));
  // What decides the module graph, shared by the first (unwritten) build and the real one.
  const graph: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    external: [...(request.external ?? [])],
    logLevel: 'silent',
    ...(serves
      ? {
          stdin: {
            contents: serveSource(request.entry),
            resolveDir: dirname(request.entry),
            sourcefile: 'mcp-fw-serve.js',
            loader: 'js' as const,
          },
        }
      : { entryPoints: [request.entry] }),
  };
  const common: BuildOptions = {
    ...graph,
    minifyWhitespace: true,
    minifySyntax: true,
    // Bundling renames a class whose name clashes with another module's; derived schemas
    // (@mcp-fw/typescript) and messages find a class by its name, so it must survive.
    keepNames: true,
    legalComments: 'none',
    sourcemap: 'linked',
    metafile: true,
  };
  const { built, lazyFiles } = await buildWithLazyFiles(esbuild, graph, common, request, name);
  const { format, bundleFile } = built;
  // One file is for other runners too (`node --build-snapshot` runs it as no module): unwrapped.
  const facts = launcherFacts(bundleFile, format === 'cjs' && !request.singleFile);
  writeFileSync(launcherFile, launcherSource(basename(bundleFile), facts, lazyFiles));
  chmodSync(launcherFile, 0o755);
  return {
    format,
    bundleFile,
    launcherFile,
    lazyFiles: lazyFiles.map(({ file }) => join(request.outDir, file)),
    bundleBytes: statSync(bundleFile).size,
    serves,
  };
}

/**
 * The bundle and its lazy files (lazy-file.ts): what core requires lazily goes to the lazy files,
 * but for what a start runs anyway (lazyRequires) and what shares a module with the bundle.
 */
async function buildWithLazyFiles(
  esbuild: typeof import('esbuild'),
  graph: BuildOptions,
  common: BuildOptions,
  request: BundleRequest,
  name: string,
): Promise<{ built: Awaited<ReturnType<typeof buildBundle>>; lazyFiles: LazyLauncherFile[] }> {
  const { eager, lazy } = await lazyRequires(esbuild, graph);
  const lazyDir = `${name}.lazy`;
  rmSync(join(request.outDir, lazyDir), { recursive: true, force: true });
  // Each target's module graph, from one unwritten build of them all.
  const graphs =
    request.singleFile || lazy.size === 0
      ? new Map<string, Set<string>>()
      : closures(
          await buildLazyFile(esbuild, common, lazyEntrySource([...lazy].map((t) => [t, t]))),
          lazy,
        );
  // zod's locales but English, when the bundle runs zod (zod-locales.ts).
  const localesFile = `${lazyDir}/zod-locales.cjs`;
  const found: { locales?: { index: string; names: Map<string, string> } } = {};
  const standIn = request.singleFile
    ? []
    : [
        zodLocalesStandIn(`./${localesFile}`, (index, names) => {
          found.locales = { index, names };
        }),
      ];
  for (;;) {
    const layout = lazyLayout(graphs, lazyDir);
    delete found.locales;
    const built = await buildBundle(
      esbuild,
      common,
      { eager, split: layout.loaders },
      request.outDir,
      name,
      standIn,
    );
    const shared = sharedTargets(built.metafile, graphs);
    if (shared.size === 0) {
      const lazyFiles: LazyLauncherFile[] = [];
      for (const [file, entries] of layout.files) {
        const outfile = join(request.outDir, file);
        await buildLazyFile(esbuild, common, lazyEntrySource(entries), outfile);
        lazyFiles.push({ file, ...launcherFacts(outfile, true) });
      }
      // Set by the stand-in's onLoad during the build above (TypeScript cannot see that).
      const locales = found.locales as { index: string; names: Map<string, string> } | undefined;
      if (locales) {
        const outfile = join(request.outDir, localesFile);
        await buildLazyFile(
          esbuild,
          common,
          zodLocalesEntry(locales.index, locales.names),
          outfile,
          [zodUtilFromBundle()],
        );
        lazyFiles.push({ file: localesFile, ...launcherFacts(outfile, true) });
      }
      return { built, lazyFiles };
    }
    // Kept in the bundle after all (lazily initialised in place); the next round builds without.
    for (const target of shared) graphs.delete(target);
  }
}

/** The bundle, CommonJS unless the code has top-level await; its metafile. */
async function buildBundle(
  esbuild: typeof import('esbuild'),
  common: BuildOptions,
  requires: LazyRequires,
  outDir: string,
  name: string,
  more: Plugin[] = [],
): Promise<{ format: 'cjs' | 'esm'; bundleFile: string; metafile: Metafile }> {
  const plugins = [...more, lazyRequirePlugin(requires)];
  const cjsFile = join(outDir, `${name}.bundle.cjs`);
  try {
    const { metafile } = await esbuild.build({
      ...common,
      plugins,
      ...cjsOutput(cjsFile),
    });
    return { format: 'cjs', bundleFile: cjsFile, metafile: metafile! };
  } catch (error) {
    // CommonJS cannot express top-level await; such code is bundled as an ES module instead.
    if (!/Top-level await is currently not supported/.test(String(error))) throw error;
    const bundleFile = join(outDir, `${name}.bundle.mjs`);
    const { metafile } = await esbuild.build({
      ...common,
      plugins,
      format: 'esm',
      outfile: bundleFile,
      // CommonJS dependencies inside an ES module bundle still call require().
      banner: {
        js: "import { createRequire as __mcpfwCreateRequire } from 'node:module'; const require = __mcpfwCreateRequire(import.meta.url);",
      },
    });
    return { format: 'esm', bundleFile, metafile: metafile! };
  }
}

/**
 * A lazy file (lazy-file.ts), or with no `outfile` an unwritten build of it for its metafile:
 * CommonJS in either bundle format, since only require() reaches what it holds. Its own lazy
 * requires, if any, are bundled where they stand.
 */
async function buildLazyFile(
  esbuild: typeof import('esbuild'),
  common: BuildOptions,
  contents: string,
  outfile?: string,
  plugins: Plugin[] = [lazyRequirePlugin()],
): Promise<Metafile> {
  const { entryPoints: _entry, stdin: _stdin, ...options } = common;
  const file = outfile ?? join(process.cwd(), 'mcp-fw-lazy.cjs');
  const { metafile } = await esbuild.build({
    ...options,
    stdin: {
      contents,
      // Its imports are absolute paths; esbuild wants an existing directory all the same.
      resolveDir: process.cwd(),
      sourcefile: 'mcp-fw-lazy.js',
      loader: 'js',
    },
    plugins,
    ...cjsOutput(file),
    ...(outfile === undefined && { write: false }),
  });
  return metafile!;
}

/**
 * Finishes a written file (restated names dropped; Node's module wrapper written in when `wrap`,
 * see module-wrapper.ts) and tells what the launcher needs of it: its content hash, how to read
 * it, whether it is wrapped.
 */
function launcherFacts(file: string, wrap: boolean): LauncherFacts {
  const trimmed = trimNames(file);
  const wrapped = wrap ? withModuleWrapper(trimmed) : undefined;
  if (wrapped !== undefined) writeFileSync(file, wrapped);
  const source = wrapped ?? trimmed;
  return {
    hash: createHash('sha256').update(source).digest('hex').slice(0, 16),
    // esbuild escapes non-ASCII characters by default (charset: 'ascii'); a banner or a hashbang
    // could still bring some, hence the check rather than an assumption.
    // (Its UTF-8 is as many bytes as it has UTF-16 units only when every character is ASCII.)
    encoding: Buffer.byteLength(source) === source.length ? 'latin1' : 'utf8',
    wrapped: wrapped !== undefined,
  };
}

function cjsOutput(outfile: string): BuildOptions {
  return {
    format: 'cjs',
    outfile,
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: {
      js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`,
    },
  };
}

/** Rewrites `file` without the name restatements keepNames adds (kept-names.ts); its new text. */
function trimNames(file: string): string {
  const source = readFileSync(file, 'utf8');
  const trimmed = dropRestatedNames(source);
  if (trimmed !== source) writeFileSync(file, trimmed);
  return trimmed;
}

/**
 * A first, unwritten build to find which of core's lazy requires reach a module the bundle runs
 * at start anyway (zod/v4/core, in a zod server): the real build references those in place
 * instead of requiring them, so esbuild does not wrap them for lazy initialisation. The others,
 * but for those top-level code requires, are candidates for the lazy file (lazy-file.ts).
 */
async function lazyRequires(
  esbuild: typeof import('esbuild'),
  graph: BuildOptions,
): Promise<{ eager: Set<string>; lazy: Set<string> }> {
  const targets = new Set<string>();
  // Required by top-level code (reflect-metadata, by core's decorators): run at start whenever
  // that module is, so kept in the bundle, where it costs no second file's read.
  const topLevel = new Set<string>();
  const { metafile } = await esbuild.build({
    ...graph,
    // The module graph is the same in either format; ESM accepts top-level await.
    format: 'esm',
    write: false,
    metafile: true,
    plugins: [
      lazyRequirePlugin({
        onTarget: (path, atTop) => (atTop ? topLevel : targets).add(path),
      }),
    ],
  });
  const eager = eagerModules(metafile, (path) => resolve(path));
  return {
    eager: new Set([...targets, ...topLevel].filter((path) => eager.has(path))),
    lazy: new Set([...targets].filter((path) => !eager.has(path) && !topLevel.has(path))),
  };
}

/** The names an entry module exports, read by esbuild without bundling it. */
export async function entryExports(
  esbuild: typeof import('esbuild'),
  entry: string,
): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: false,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
    outdir: 'out',
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.exports);
}

function exportsServer(names: readonly string[]): boolean {
  return names.includes('server') || names.includes('default');
}

/** The program for an entry that exports its server: serve it as `mcp-fw start` would. */
function serveSource(entry: string): string {
  return [
    // First, as in mcp-fw start: from here on only protocol frames reach stdout in stdio mode.
    "import { serveFromArgs } from '@mcp-fw/core/serve';",
    `import * as entry from ${JSON.stringify(`./${basename(entry)}`)};`,
    '(async () => {',
    '  const server = await (entry.server ?? entry.default);',
    // PORT picks the HTTP port when --port does not, as in mcp-fw start.
    '  const port = process.env.PORT;',
    '  await serveFromArgs(server, process.argv.slice(2), port ? { port: Number(port) } : {});',
    '})().catch((error) => {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this line is source text of the generated launcher.
    '  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\\n`);',
    '  process.exit(1);',
    '});',
    '',
  ].join('\n');
}
