import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { dropRestatedNames } from './kept-names.js';
import { launcherSource } from './launcher-source.js';
import { eagerModules, type LazyRequires, lazyRequirePlugin } from './lazy-require-plugin.js';

/** What {@link bundleServer} bundles, and where it writes. */
export interface BundleRequest {
  /** The built JavaScript entry: a module that exports the server, or a program that serves it. */
  readonly entry: string;
  /** Directory for `<name>.bundle.cjs` and `<name>.launch.cjs`. */
  readonly outDir: string;
  /** Base name of the output files (default: the entry's, without extension). */
  readonly name?: string;
  /** Packages left out of the bundle and required from node_modules at run time. */
  readonly external?: readonly string[];
}

/** What a bundle build wrote: the bundle, its launcher and how long it took. */
export interface BundleResult {
  /** `cjs`, started through a V8 code cache on every Node; `esm` when the code has top-level await (cached on Node 22.1+ only). */
  readonly format: 'cjs' | 'esm';
  readonly bundleFile: string;
  readonly launcherFile: string;
  readonly bundleBytes: number;
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
 * maps them back to the build output (`node --enable-source-maps`).
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
    plugins: [lazyRequirePlugin(await lazyRequires(esbuild, graph))],
  };
  let format: 'cjs' | 'esm' = 'cjs';
  let bundleFile = join(request.outDir, `${name}.bundle.cjs`);
  try {
    await esbuild.build({
      ...common,
      format: 'cjs',
      outfile: bundleFile,
      define: { 'import.meta.url': IMPORT_META_URL },
      banner: {
        js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`,
      },
    });
  } catch (error) {
    // CommonJS cannot express top-level await; such code is bundled as an ES module instead.
    if (!/Top-level await is currently not supported/.test(String(error))) throw error;
    format = 'esm';
    bundleFile = join(request.outDir, `${name}.bundle.mjs`);
    await esbuild.build({
      ...common,
      format: 'esm',
      outfile: bundleFile,
      // CommonJS dependencies inside an ES module bundle still call require().
      banner: {
        js: "import { createRequire as __mcpfwCreateRequire } from 'node:module'; const require = __mcpfwCreateRequire(import.meta.url);",
      },
    });
  }
  const bundled = readFileSync(bundleFile, 'utf8');
  const trimmed = dropRestatedNames(bundled);
  if (trimmed !== bundled) writeFileSync(bundleFile, trimmed);
  const contentHash = createHash('sha256').update(trimmed).digest('hex').slice(0, 16);
  // esbuild escapes non-ASCII characters by default (charset: 'ascii'); a banner or a hashbang
  // could still bring some, hence the check rather than an assumption.
  // (Its UTF-8 is as many bytes as it has UTF-16 units only when every character is ASCII.)
  const ascii = Buffer.byteLength(trimmed) === trimmed.length;
  writeFileSync(
    launcherFile,
    launcherSource(basename(bundleFile), contentHash, ascii ? 'latin1' : 'utf8'),
  );
  chmodSync(launcherFile, 0o755);
  return { format, bundleFile, launcherFile, bundleBytes: statSync(bundleFile).size, serves };
}

/**
 * A first, unwritten build to find which of core's lazy requires reach a module the bundle runs
 * at start anyway (zod/v4/core, in a zod server): the real build references those in place
 * instead of requiring them, so esbuild does not wrap them for lazy initialisation.
 */
async function lazyRequires(
  esbuild: typeof import('esbuild'),
  graph: BuildOptions,
): Promise<LazyRequires> {
  const targets = new Set<string>();
  const { metafile } = await esbuild.build({
    ...graph,
    // The module graph is the same in either format; ESM accepts top-level await.
    format: 'esm',
    write: false,
    metafile: true,
    plugins: [lazyRequirePlugin({ onTarget: (path) => targets.add(path) })],
  });
  const eager = eagerModules(metafile, (path) => resolve(path));
  return { eager: new Set([...targets].filter((path) => eager.has(path))) };
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
