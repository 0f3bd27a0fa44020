import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { CliError } from '../output/cli-error.js';

/** The project an entry module belongs to: the nearest `tsconfig.json` and `package.json`. */
export interface Project {
  /** The directory of `tsconfig.json`, or of `package.json` for a JavaScript-only project. */
  readonly dir: string;
  readonly tsconfig?: string;
  /** The nearest `package.json` above the entry, parsed. */
  readonly packageJson?: { readonly path: string; readonly data: Record<string, unknown> };
}

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** Whether a module is TypeScript source (compiled before it runs) rather than JavaScript. */
export function isTypeScript(file: string): boolean {
  return TS_EXTENSIONS.has(extname(file)) && !file.endsWith('.d.ts');
}

/** Where a project directory's server module is, as `create-mcp-server` and the examples lay it out. */
const DIRECTORY_ENTRY = 'src/server.ts';

/**
 * Resolves the entry argument against `cwd` and checks that it is a file, with the fix in the
 * error: an entry is the module that exports the server (`server` or `default`). A project
 * directory stands for its `src/server.ts`, and no entry for the current directory's.
 */
export function resolveEntry(entry: string | undefined, cwd = process.cwd()): string {
  const hint =
    'Pass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).';
  if (entry === undefined) {
    // No entry: the project in the current directory, laid out as create-mcp-server does.
    const inside = join(cwd, DIRECTORY_ENTRY);
    if (existsSync(inside) && statSync(inside).isFile()) return inside;
    throw new CliError(
      `No entry was given, and there is no ${DIRECTORY_ENTRY} in ${cwd}.`,
      `Run the command in your project's directory, or ${hint[0].toLowerCase()}${hint.slice(1)}`,
    );
  }
  const file = resolve(cwd, entry);
  if (!existsSync(file)) throw new CliError(`${entry} does not exist.`, hint);
  if (statSync(file).isDirectory()) {
    const inside = join(file, DIRECTORY_ENTRY);
    if (existsSync(inside) && statSync(inside).isFile()) return inside;
    throw new CliError(`${entry} is a directory without ${DIRECTORY_ENTRY}.`, hint);
  }
  if (!statSync(file).isFile()) throw new CliError(`${entry} is not a file.`, hint);
  return file;
}

/** Finds the project of `file` by walking up to the nearest `tsconfig.json` and `package.json`. */
export function findProject(file: string): Project {
  const tsconfig = findUp(dirname(file), 'tsconfig.json');
  const pkg = findUp(dirname(file), 'package.json');
  const packageJson = pkg
    ? { path: pkg, data: JSON.parse(readFileSync(pkg, 'utf8')) as Record<string, unknown> }
    : undefined;
  const dir = tsconfig ? dirname(tsconfig) : pkg ? dirname(pkg) : dirname(file);
  return { dir, tsconfig, packageJson };
}

/** The project in `dir` itself (for `mcp-fw build`), with its `tsconfig.json`. */
export function projectIn(
  dir: string,
  tsconfigPath = 'tsconfig.json',
): Project & { tsconfig: string } {
  const tsconfig = resolve(dir, tsconfigPath);
  if (!existsSync(tsconfig)) {
    throw new CliError(
      `There is no ${relative(process.cwd(), tsconfig) || tsconfigPath} here.`,
      'Run mcp-fw build in the directory of your project (where tsconfig.json is), or pass --project <tsconfig>.',
    );
  }
  const pkg = findUp(dirname(tsconfig), 'package.json');
  const packageJson = pkg
    ? { path: pkg, data: JSON.parse(readFileSync(pkg, 'utf8')) as Record<string, unknown> }
    : undefined;
  return { dir: dirname(tsconfig), tsconfig, packageJson };
}

/** Where `mcp-fw` keeps compiled output for a project: its `node_modules/.cache/mcp-fw`. */
export function cacheRoot(project: Project): string {
  return join(project.dir, 'node_modules', '.cache', 'mcp-fw');
}

function findUp(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
