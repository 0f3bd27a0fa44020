import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('../../scripts/conformance.mjs', import.meta.url));

/** What scripts/conformance.mjs printed and how it exited. */
export interface RunnerOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs scripts/conformance.mjs with `args` (e.g. `--runtime bun --requirements-only`). */
export function runConformance(args: readonly string[] = []): Promise<RunnerOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [RUNNER, ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The runner's closing summary: per run, its header line and what it reported as failing. */
export function summaryOf(stdout: string): Record<string, { header: string; problems: string[] }> {
  const at = stdout.lastIndexOf('=== conformance summary ===');
  const runs: Record<string, { header: string; problems: string[] }> = {};
  let current: { header: string; problems: string[] } | undefined;
  for (const line of at < 0 ? [] : stdout.slice(at).split('\n').slice(1)) {
    const header = /^\[(.+?)\] (.*)$/.exec(line);
    if (header) runs[header[1]] = current = { header: header[2], problems: [] };
    else if (line.trim() && current) current.problems.push(line.trim());
  }
  return runs;
}
