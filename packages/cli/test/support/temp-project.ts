import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FIXTURES, REPO_ROOT } from './paths.ts';

/** A project copied into a temporary directory, so tests never touch the repository's files. */
export interface TempProject {
  readonly dir: string;
  path(file: string): string;
  read(file: string): string;
  write(file: string, content: string): void;
  remove(): void;
}

/**
 * The root node_modules, entry by entry (a real directory of links, so the project's own
 * node_modules/.cache stays inside the temporary directory).
 */
function linkNodeModules(dir: string): void {
  const target = join(dir, 'node_modules');
  mkdirSync(target);
  const root = join(REPO_ROOT, 'node_modules');
  for (const name of readdirSync(root)) {
    if (!name.startsWith('.')) symlinkSync(join(root, name), join(target, name));
  }
}

function project(dir: string): TempProject {
  return {
    dir,
    path: (file) => join(dir, file),
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    write: (file, content) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), content);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A copy of `packages/cli/test/fixtures/<name>`. */
export function fixtureProject(name: string): TempProject {
  const dir = mkdtempSync(join(tmpdir(), `mcp-fw-cli-${name}-`));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  linkNodeModules(dir);
  return project(dir);
}

/**
 * A copy of `examples/<name>` (sources and package.json) with a standalone tsconfig: the
 * repository's base options, @mcp-fw/core taken from its build output like any dependency.
 */
export function exampleProject(name: string): TempProject {
  const dir = mkdtempSync(join(tmpdir(), `mcp-fw-cli-example-${name}-`));
  cpSync(join(REPO_ROOT, 'examples', name, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(REPO_ROOT, 'examples', name, 'package.json'), join(dir, 'package.json'));
  const tsconfig = {
    extends: join(REPO_ROOT, 'tsconfig.base.json'),
    compilerOptions: {
      rootDir: 'src',
      outDir: 'dist',
      customConditions: [],
      composite: false,
      incremental: false,
    },
    include: ['src'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  linkNodeModules(dir);
  return project(dir);
}

/** A copy of `templates/<name>` (sources, package.json, tsconfig.json), as the scaffolder writes it. */
export function templateProject(name: string): TempProject {
  const dir = mkdtempSync(join(tmpdir(), `mcp-fw-cli-template-${name}-`));
  for (const entry of ['src', 'package.json', 'tsconfig.json'])
    cpSync(join(REPO_ROOT, 'templates', name, entry), join(dir, entry), { recursive: true });
  linkNodeModules(dir);
  return project(dir);
}
