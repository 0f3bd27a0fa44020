// How a test starts a TypeScript entry file (a fixture server, an example's src/main.ts) as a
// real node process, cheaply. `node --import tsx` with the `@mcp-fw/source` condition costs about
// 2 CPU-seconds a start (tsx loads, then transforms @mcp-fw/* from their sources); npm test starts
// such processes by the hundred on 2 cores. Built output starts in about 0.5 s:
//
// - a file inside a package's `src/` that `tsc -b` builds runs from that package's `dist/`;
// - any other file (a test fixture) is bundled once per test file with esbuild, its own relative
//   imports inlined and every package left external, so @mcp-fw/* resolve to their dist as an
//   installed package would. esbuild transforms as tsx does (the same decorator settings from the
//   base tsconfig, no decorator metadata), so a fixture behaves as it did under tsx, and its
//   inline source map keeps stack traces naming the fixture's .ts file.
//
// `npm test` runs `tsc -b` before vitest. When a package's sources are newer than its last build
// (a file edited since, vitest run on its own), the built output would test old code: then the
// entry runs through tsx from the sources, as before, only slower.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_TSCONFIG = join(REPO_ROOT, 'tsconfig.base.json');
/** Under node_modules, so that zod, @mcp-fw/* and the rest resolve from the bundles. */
const BUNDLES = join(REPO_ROOT, 'node_modules/.cache/mcp-fw-test-entries');
/** The folders whose `src/` `tsc -b` builds into `dist/` (root tsconfig.json's references). */
const BUILT = ['packages', 'examples', 'templates'];

/** The node arguments and extra environment that run one entry file. */
export interface NodeEntry {
  /** Arguments for `process.execPath`, the entry last: append the program's own after them. */
  args: string[];
  /** Environment to add to the child's (empty when the entry runs from built output). */
  env: Record<string, string>;
  /** How it runs: from `dist`, an esbuild `bundle` over dist, or `tsx` over the sources. */
  via: 'dist' | 'bundle' | 'tsx';
}

const bundled = new Map<string, string>();

/**
 * The cheapest faithful way to run `entry` (an absolute `.ts` path) with node, for a test that
 * starts it as a child process.
 *
 * @example
 * const { args, env } = nodeEntry(join(REPO_ROOT, 'examples/files/src/main.ts'));
 * const child = spawn(process.execPath, [...args, '--http'], { env: { ...process.env, ...env } });
 */
export function nodeEntry(entry: string): NodeEntry {
  if (process.env.MCP_FW_TEST_ENTRIES === 'tsx' || !builtIsFresh()) return viaTsx(entry);
  const built = builtFile(entry);
  if (built !== undefined) return { args: [built], env: {}, via: 'dist' };
  let bundle = bundled.get(entry);
  if (bundle === undefined) {
    bundle = bundleOf(entry);
    bundled.set(entry, bundle);
  }
  // Source maps, so that stack traces name the fixture's .ts file and line, as under tsx.
  return { args: ['--enable-source-maps', bundle], env: {}, via: 'bundle' };
}

/** `node --import tsx` from the sources, as the tests ran before; for tests about tsx itself too. */
export function viaTsx(entry: string): NodeEntry {
  return {
    args: ['--conditions=@mcp-fw/source', '--import', 'tsx', entry],
    env: { TSX_TSCONFIG_PATH: BASE_TSCONFIG },
    via: 'tsx',
  };
}

/** `<folder>/<name>/dist/x.js` for `<folder>/<name>/src/x.ts` when that was built, else undefined. */
function builtFile(entry: string): string | undefined {
  const parts = relative(REPO_ROOT, entry).split(sep);
  if (parts.length < 4 || !BUILT.includes(parts[0]) || parts[2] !== 'src') return undefined;
  const built = join(REPO_ROOT, parts[0], parts[1], 'dist', ...parts.slice(3)).replace(
    /\.ts$/,
    '.js',
  );
  return existsSync(built) ? built : undefined;
}

function bundleOf(entry: string): string {
  const { outputFiles } = buildSync({
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: BASE_TSCONFIG,
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  const text = outputFiles[0].text;
  // Named by content: test files bundling the same fixture at once write the same file, and a
  // changed fixture never runs an old bundle.
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = join(BUNDLES, `${basename(entry, '.ts')}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(BUNDLES, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}

let fresh: boolean | undefined;

/**
 * Whether every built package is at least as new as its sources: `tsc -b` rewrites (or touches) a
 * project's tsconfig.tsbuildinfo whenever it builds or checks it, so a source file newer than
 * that was edited after the last build.
 */
function builtIsFresh(): boolean {
  if (fresh !== undefined) return fresh;
  fresh = true;
  for (const folder of BUILT) {
    for (const name of readdirSync(join(REPO_ROOT, folder))) {
      const project = join(REPO_ROOT, folder, name);
      const src = join(project, 'src');
      // The templates keep theirs in dist (their tsconfig.workspace.json says why).
      const info = [
        join(project, 'tsconfig.tsbuildinfo'),
        join(project, 'dist/tsconfig.workspace.tsbuildinfo'),
      ].find((file) => existsSync(file));
      if (!existsSync(src) || info === undefined) continue;
      if (newestIn(src) > statSync(info).mtimeMs) {
        fresh = false;
        return fresh;
      }
    }
  }
  return fresh;
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
