import { spawn, type ChildProcess } from 'node:child_process';
import { patience } from '../../../../test-support/patience.ts';
import { BIN } from './paths.ts';

/** What a finished `mcp-fw` run printed, and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment for child processes: no colours, whatever the test runner's terminal. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs `mcp-fw <args>` in `cwd` to the end. */
export function runCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = cliEnv(),
): Promise<CliRun> {
  return spawnCli(args, cwd, env).exited;
}

/**
 * Starts `mcp-fw <args>` in `cwd` for a test that acts while it runs (reads its stderr, signals
 * it); `exited` resolves with the whole run.
 */
export function spawnCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = cliEnv(),
): { child: ChildProcess; stderr: () => string; exited: Promise<CliRun> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, stderr: () => stderr, exited };
}

/** Starts a long-running `mcp-fw <args>` (dev or start over HTTP) and collects its stderr. */
export function startCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = cliEnv(),
): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr };
}

/** The URL a server prints once listening (`listening on http://…`). */
export async function listeningUrl(stderr: () => string, child: ChildProcess): Promise<string> {
  const deadline = Date.now() + patience(15_000);
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(stderr());
    if (match) return match[1];
    if (child.exitCode !== null)
      throw new Error(`the server exited (${child.exitCode}): ${stderr()}`);
    if (Date.now() > deadline) throw new Error(`the server did not listen: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
