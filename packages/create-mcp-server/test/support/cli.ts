import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scaffolder's committed bin, as `npm create` runs it in the repository. */
export const BIN = resolve(fileURLToPath(import.meta.url), '../../../bin/create-mcp-server.js');

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');

/** What npm 11 on Node 20 puts in `npm_config_user_agent`. */
export const NPM_USER_AGENT = 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false';

/** What a finished process printed and returned. */
export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin with `args` in `cwd`, feeding it `input` on a pipe, as npm would launch it. */
export function runCli(
  args: readonly string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv },
): Promise<Finished> {
  return run(process.execPath, [BIN, ...args], options);
}

/** Runs any command to completion, collecting its output. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; replaceEnv?: boolean },
): Promise<Finished> {
  // The bin is launched as `npm create` would, unless the caller passes its own environment.
  const base = options.replaceEnv ? {} : { ...process.env, npm_config_user_agent: NPM_USER_AGENT };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...base, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
    // A command that exits without reading its input closes the pipe first (EPIPE): what it
    // printed and its status are the result, not the write that found it gone.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Every file below `dir` (except `.git`), path → content, sorted by path. */
export function tree(dir: string): Record<string, string> {
  const files: [string, string][] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push([relative(dir, path).replaceAll('\\', '/'), readFileSync(path, 'utf8')]);
    }
  };
  walk(dir);
  return Object.fromEntries(files.sort(([a], [b]) => a.localeCompare(b)));
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `create-mcp-server-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
