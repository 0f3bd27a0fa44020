import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { runCommand, type StepResult } from './run-command.js';
import type { PackageManager } from './package-manager.js';
import { PACKAGE_DIR, runsFromRepository } from './templates.js';

/** The mcp-fw packages a generated project depends on: npm name → folder in the repository. */
export const FRAMEWORK_PACKAGES: Readonly<Record<string, string>> = {
  '@mcp-fw/core': 'packages/core',
  '@mcp-fw/cli': 'packages/cli',
};

/**
 * The other mcp-fw packages, which a project depends on by its template and options (the basic
 * template's `@mcp-fw/typescript`, the http template's `@mcp-fw/redis`, `--auth oauth`'s
 * `@mcp-fw/auth`): all packed into a scaffolder tarball, vendored into a project when its
 * package.json names them. Every published `@mcp-fw/*` package is here or above (a test checks).
 */
export const OPTIONAL_FRAMEWORK_PACKAGES: Readonly<Record<string, string>> = {
  '@mcp-fw/auth': 'packages/auth',
  '@mcp-fw/client': 'packages/client',
  '@mcp-fw/cloudflare': 'packages/cloudflare',
  '@mcp-fw/codemode': 'packages/codemode',
  '@mcp-fw/openapi': 'packages/openapi',
  '@mcp-fw/otel': 'packages/otel',
  '@mcp-fw/proxy': 'packages/proxy',
  '@mcp-fw/redis': 'packages/redis',
  '@mcp-fw/typescript': 'packages/typescript',
};

/** The folder of a generated project that holds the packed framework packages. */
export const VENDOR_DIR = 'vendor';

/** The tarballs a packed (not published) scaffolder carries, packed at `prepack`. */
export const PACKED_VENDOR_DIR = join(PACKAGE_DIR, VENDOR_DIR);

/**
 * Where a new project gets `@mcp-fw/*` from:
 * - `checkout`: the scaffolder runs from a clone of mcp-fw; the packages are packed from it;
 * - `tarball`: the scaffolder runs from a tarball made with `npm pack`, which carries them;
 * - `registry`: the published scaffolder; the project depends on the published versions.
 */
export type PackagesSource = 'checkout' | 'tarball' | 'registry';

/** The source this scaffolder would use when the command line does not choose one. */
export function defaultPackagesSource(): PackagesSource {
  if (runsFromRepository()) return 'checkout';
  return existsSync(PACKED_VENDOR_DIR) && tarballsIn(PACKED_VENDOR_DIR).length > 0
    ? 'tarball'
    : 'registry';
}

/**
 * The environment of the npm commands the scaffolder runs: `npm create` hands its child the
 * npm_* variables of its own run (its prefix, its package, its lifecycle), which a nested npm
 * would take for its own; the user's npm configuration (`npm_config_*`: registry, cache…) stays.
 */
export function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key]) =>
        !/^npm_(package|lifecycle)_/i.test(key) &&
        !/^npm_(command|config_local_prefix|config_prefix)$/i.test(key) &&
        key !== 'INIT_CWD',
    ),
  );
}

/**
 * `npm pack`s the framework packages of the repository at `repoRoot` into `destination`; returns
 * npm name → tarball file name. Their `dist/` must be built.
 */
export async function packFramework(
  repoRoot: string,
  destination: string,
  env: NodeJS.ProcessEnv,
  packages: Readonly<Record<string, string>> = FRAMEWORK_PACKAGES,
): Promise<StepResult & { tarballs?: Record<string, string> }> {
  const missing = Object.values(packages).filter(
    (folder) => !existsSync(join(repoRoot, folder, 'dist')),
  );
  if (missing.length > 0) {
    return {
      ok: false,
      command: 'npm pack',
      output: '',
      reason: 'the framework packages could not be packed',
      cause: `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not built (no dist/)`,
      fix: `Build the repository first: cd ${repoRoot} && npm ci && npx tsc -b`,
    };
  }
  mkdirSync(destination, { recursive: true });
  const args = [
    'pack',
    '--json',
    '--pack-destination',
    destination,
    ...Object.values(packages).flatMap((folder) => ['-w', folder]),
  ];
  const result = await runCommand('npm', args, { cwd: repoRoot, env: npmEnv(env) });
  if (!result.ok) {
    return {
      ...result,
      fix: `Fix the problem npm reports above (the repository is ${repoRoot}), then run the command again.`,
    };
  }
  let packed: { name: string; filename: string }[];
  try {
    packed = JSON.parse(result.stdout) as { name: string; filename: string }[];
  } catch {
    return {
      ok: false,
      command: 'npm pack',
      output: result.output,
      reason: 'npm pack printed no JSON',
      fix: 'Check the npm version (npm 9 or later packs workspaces with --json).',
    };
  }
  return { ok: true, tarballs: Object.fromEntries(packed.map((p) => [p.name, p.filename])) };
}

/**
 * Copies the tarballs of `packages` a packed scaffolder carries into `destination`; returns npm
 * name → file name.
 */
export function copyPackedFramework(
  destination: string,
  packages: Readonly<Record<string, string>> = FRAMEWORK_PACKAGES,
): Record<string, string> {
  mkdirSync(destination, { recursive: true });
  const tarballs: Record<string, string> = {};
  for (const file of tarballsIn(PACKED_VENDOR_DIR)) {
    const name = Object.keys(packages).find((n) => file.startsWith(`${tarballStem(n)}-`));
    if (!name) continue;
    copyFileSync(join(PACKED_VENDOR_DIR, file), join(destination, file));
    tarballs[name] = file;
  }
  return tarballs;
}

/**
 * Points the project's framework dependencies at the tarballs in its `vendor/` folder, by
 * `file:`, and overrides them everywhere in the tree (the CLI depends on core by version, which
 * the registry may not have). Everything else still comes from the registry.
 */
export function dependOnVendored(
  projectDir: string,
  tarballs: Record<string, string>,
  pm: PackageManager,
): void {
  const path = join(projectDir, 'package.json');
  const pkg = JSON.parse(readFileSync(path, 'utf8')) as ProjectManifest;
  const overrides: Record<string, string> = {};
  // By name, so the file reads the same whichever way the tarballs came.
  for (const [name, file] of Object.entries(tarballs).sort(([a], [b]) => a.localeCompare(b))) {
    const spec = `file:${VENDOR_DIR}/${file}`;
    for (const deps of [pkg.dependencies, pkg.devDependencies]) if (deps?.[name]) deps[name] = spec;
    overrides[name] = spec;
  }
  // npm and bun read `overrides`, pnpm `pnpm.overrides`, yarn `resolutions`.
  if (pm === 'pnpm') pkg.pnpm = { ...pkg.pnpm, overrides };
  else if (pm === 'yarn') pkg.resolutions = overrides;
  else pkg.overrides = overrides;
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** The members of the project's `package.json` that vendoring rewrites; the rest is kept as is. */
interface ProjectManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
  resolutions?: Record<string, string>;
  pnpm?: { overrides?: Record<string, string>; [setting: string]: unknown };
  [member: string]: unknown;
}

/** `@mcp-fw/core` → `mcp-fw-core`, as `npm pack` names the tarball. */
function tarballStem(name: string): string {
  return name.replace(/^@/, '').replace('/', '-');
}

function tarballsIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith('.tgz'))
        .sort()
    : [];
}
