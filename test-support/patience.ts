import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * How many times slower than a quiet machine this one runs right now: processes wanting a core
 * per core, never below 1. A quiet 2-core machine gives 1; the same machine beside six busy
 * processes (a load average of 8) gives 4. Waits for a child process start, reload or answer
 * take longer in that proportion, since every child competes for the same cores.
 *
 * The load is the larger of the 1-minute load average and the processes runnable at this instant
 * (Linux's /proc/loadavg), because the average lags a load that has just begun by a minute.
 */
export function slowness(): number {
  return Math.max(1, load() / availableParallelism());
}

/**
 * `quietMs`, a deadline that is ample on a quiet machine, stretched by {@link slowness}. For a
 * wait's give-up time only: a wait watches for the event itself (and for the child exiting), so
 * on a healthy run the deadline is never reached and costs nothing; it only bounds how long a
 * broken run takes to fail, with a message naming what never came.
 *
 * @example
 * const deadline = Date.now() + patience(15_000);
 */
export function patience(quietMs: number): number {
  return Math.round(quietMs * slowness());
}

function load(): number {
  const average = loadavg()[0];
  try {
    // "0.52 0.58 0.59 3/1210 4242": the fourth field is runnable/total, this process included.
    const runnable = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/')[0]);
    return Number.isFinite(runnable) ? Math.max(average, runnable - 1) : average;
  } catch {
    return average;
  }
}

/**
 * vitest's per-test and per-hook timeout on a quiet machine (vitest.config.ts); each test file
 * stretches it by {@link slowness} as it starts (patience-setup.ts).
 */
export const QUIET_TEST_TIMEOUT_MS = 30_000;
