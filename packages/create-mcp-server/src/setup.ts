import { spawnSync } from 'node:child_process';
import { npmEnv } from './framework-packages.js';
import { installCommand, type PackageManager } from './package-manager.js';
import { runCommand, type StepResult } from './run-command.js';
import { REPOSITORY_URL } from './templates.js';

/**
 * `git init` in `dir`, unless it is already inside a git work tree (a monorepo, say), where a
 * nested repository would be a nuisance.
 */
export function initGit(dir: string): StepResult | 'inside-repository' {
  const inside = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (inside.error) {
    return {
      ok: false,
      command: 'git',
      output: '',
      reason: `git is not available (${inside.error.message})`,
      fix: 'Install git, or pass --no-git.',
    };
  }
  if (inside.status === 0 && inside.stdout.trim() === 'true') return 'inside-repository';
  const init = spawnSync('git', ['init', '--quiet'], { cwd: dir, encoding: 'utf8' });
  if (init.status === 0) return { ok: true };
  return {
    ok: false,
    command: 'git init',
    output: `${init.stdout ?? ''}${init.stderr ?? ''}`,
    reason: `git init exited with code ${init.status}`,
    fix: 'Fix the problem git reports above, or pass --no-git.',
  };
}

/**
 * Installs the project's dependencies with `pm`, showing its output as it comes; a failure
 * carries that output and, when it is one we know, the fix.
 */
export async function install(
  dir: string,
  pm: PackageManager,
  env: NodeJS.ProcessEnv,
  echo: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<StepResult> {
  const [command, ...args] = installCommand(pm);
  const result = await runCommand(command, args, { cwd: dir, env: npmEnv(env), echo });
  if (result.ok) return { ok: true };
  return { ...result, ...diagnoseInstall(result.output, pm, dir) };
}

/** The cause and fix of a failed install, read from what the package manager printed. */
export function diagnoseInstall(
  output: string,
  pm: PackageManager,
  dir: string,
): { cause?: string; fix: string } {
  const retry = `then run ${installCommand(pm).join(' ')} in ${dir}`;
  // npm: "404 Not Found - GET https://registry.npmjs.org/@mcp-fw%2fcli" and "'@mcp-fw/cli@^0.1.0'
  // is not in this registry" (npm 10) or "could not be found" (npm 11).
  const notInRegistry =
    /'(@mcp-fw\/[\w.-]+)@[^']*' (?:is not in this registry|could not be found)/.exec(output)?.[1];
  const notFound = /404 Not Found - GET \S*\/@mcp-fw(?:%2f|\/)([\w.-]+)/i.exec(output)?.[1];
  const missing = notInRegistry ?? (notFound && `@mcp-fw/${notFound}`);
  if (missing) {
    return {
      cause: `${missing} is not on the registry the project installs from (404), so the published mcp-fw packages cannot be used`,
      fix:
        `Scaffold from a clone of mcp-fw, which packs its packages into the project (git clone ${REPOSITORY_URL} && cd mcp-fw, npm ci && npx tsc -b, ` +
        'then npm create mcp-server -- <dir>), or from a tarball of the scaffolder made there with ' +
        'npm pack -w packages/create-mcp-server (npm exec --package=./create-mcp-server-0.1.0.tgz -- create-mcp-server <dir>).',
    };
  }
  if (/ENOTCACHED/.test(output))
    return {
      cause: 'a package is not in the npm cache and npm is offline',
      fix: `Go online (or unset npm's offline setting), ${retry}.`,
    };
  if (/E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT)/.test(output))
    return {
      cause: 'the registry could not be reached',
      fix: `Check the network and the registry setting (npm config get registry), ${retry}.`,
    };
  return { fix: `Fix the problem reported above, ${retry}.` };
}
