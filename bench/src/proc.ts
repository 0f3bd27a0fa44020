import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat times (`getconf CLK_TCK`, 100 on Linux). */
export function clockTicksPerSecond(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    if (Number.isInteger(value) && value > 0) return value;
  } catch {
    // getconf missing: Linux has used 100 for decades.
  }
  return 100;
}

/** utime + stime of the whole process (every thread), in clock ticks. */
export function cpuTicks(pid: number): number {
  const { user, system } = cpuTicksSplit(pid);
  return user + system;
}

/** utime and stime of the whole process (every thread), in clock ticks. */
export function cpuTicksSplit(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may contain spaces and parentheses: fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12.
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

/**
 * Nanoseconds on CPU summed over the process's current threads (/proc/<pid>/task/* /schedstat).
 * A finer cross-check of {@link cpuTicks}; misses threads that exited in between.
 */
export function cpuNanos(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread exited while we were listing.
    }
  }
  return total;
}

/** Read and write system calls the process has made so far (/proc/<pid>/io). */
export function ioCalls(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? Number.NaN);
  return { reads: field('syscr'), writes: field('syscw') };
}

function statusKb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** Peak resident set size (VmHWM) in kB. */
export function peakRssKb(pid: number): number {
  return statusKb(pid, 'VmHWM');
}

/** Current resident set size (VmRSS) in kB. */
export function rssKb(pid: number): number {
  return statusKb(pid, 'VmRSS');
}

/** Machine-wide CPU time in clock ticks (user..steal; guest time is already inside user). */
function machineTicks(): { idle: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
}

/** CPU of this process and of its exited (reaped) children: utime+stime+cutime+cstime. */
function ownTicks(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((a, b) => a + Number(b), 0);
}

/** Share of the machine's CPU time that was idle over the next `ms` (0..1). */
export async function idleShare(ms: number): Promise<number> {
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTicks();
  return (after.idle - before.idle) / Math.max(1, after.total - before.total);
}

/**
 * Measures how much of the machine other processes used while the benchmark ran: all busy CPU
 * minus the harness's own and its servers' (counted once they have exited).
 */
export class Interference {
  readonly #machine = machineTicks();
  readonly #own = ownTicks();

  /** Other processes' share of all CPU time since construction (0..1). */
  share(): number {
    const now = machineTicks();
    const busy = now.total - now.idle - (this.#machine.total - this.#machine.idle);
    const others = busy - (ownTicks() - this.#own);
    return Math.max(0, others) / Math.max(1, now.total - this.#machine.total);
  }
}

/** The CPUs `pid` may run on (`Cpus_allowed_list`, e.g. `0-1`). */
export function cpusAllowed(pid: number): string {
  const match = /^Cpus_allowed_list:\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ?? '0';
}

/** Sets the CPU affinity of every thread of `pid` (`taskset`); false when it could not. */
export function pin(pid: number, cpuList: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
