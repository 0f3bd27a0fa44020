import { spawnSync } from 'node:child_process';
import { installCommand, type PackageManager } from './package-manager.js';

/** The outcome of a setup step: done, or why not. */
export type StepResult = { ok: true } | { ok: false; reason: string };

/**
 * `git init` in `dir`, unless it is already inside a git work tree (a monorepo, say), where a
 * nested repository would be a nuisance.
 */
export function initGit(dir: string): StepResult | 'inside-repository' {
  const inside = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, encoding: 'utf8' });
  if (inside.error) return { ok: false, reason: `git is not available (${inside.error.message})` };
  if (inside.status === 0 && inside.stdout.trim() === 'true') return 'inside-repository';
  const init = spawnSync('git', ['init', '--quiet'], { cwd: dir, encoding: 'utf8' });
  return init.status === 0 ? { ok: true } : { ok: false, reason: (init.stderr || String(init.error)).trim() };
}

/** Installs the project's dependencies with `pm`, showing its output. */
export function install(dir: string, pm: PackageManager): StepResult {
  const [command, ...args] = installCommand(pm);
  // npm is npm.cmd on Windows, which only a shell runs.
  const result = spawnSync(command, args, { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
  if (result.error) return { ok: false, reason: result.error.message };
  return result.status === 0 ? { ok: true } : { ok: false, reason: `${command} ${args.join(' ')} exited with ${result.status}` };
}
