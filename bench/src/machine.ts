import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverRuntime } from './config.js';

export function machineFacts(ticksPerSecond: number) {
  return {
    /** The node that ran the servers (`BENCH_NODE`, else the harness's own). */
    node: execFileSync(serverRuntime, ['--version'], { encoding: 'utf8' }).trim(),
    nodePath: serverRuntime,
    harnessNode: process.version,
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    platform: `${process.platform} ${process.arch}`,
    clockTicksPerSecond: ticksPerSecond,
    loadAverageAtStart: loadavg(),
  };
}

/** Which code was measured: the commit, and whether the working tree differed from it. */
export function sourceState(): { commit: string; dirty: boolean } | undefined {
  const cwd = fileURLToPath(new URL('.', import.meta.url));
  const git = (...args: string[]) =>
    execFileSync('git', args, { encoding: 'utf8', cwd, stdio: 'pipe' }).trim();
  try {
    return {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain', '--', '../..') !== '',
    };
  } catch {
    return undefined; // not a git checkout
  }
}
