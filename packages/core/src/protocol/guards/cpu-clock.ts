// Whether a call that ran past its deadline in wall time held the CPU all that time, or the
// process was waiting for one. On a loaded machine the operating system can pause the process
// for longer than a short deadline while a handler's synchronous part runs: the deadline has
// passed all the same (the call is answered as timed out), but the handler did not hold the
// event loop and must not be reported as if it had. The process's CPU time tells them apart
// where the runtime offers it (`process.cpuUsage`: Node, Bun, Deno); elsewhere (a Worker, whose
// clock does not advance while code runs anyway) the wall time alone decides, as before.
//
// Reading the CPU clock is a system call that costs several times a call's two wall-clock
// reads, so a call does not read it: it takes the last reading, refreshed when older than a
// quarter of its deadline. The CPU the process used since that reading bounds what the call
// used from above (the reading predates the call's start; other threads only add to it), so a
// call whose bound stays under its deadline certainly did not use the deadline's worth itself,
// while one that spun through it is always reported.

interface CpuUsage {
  readonly user: number;
  readonly system: number;
}
type Process = { cpuUsage?: () => CpuUsage };

let reader: (() => number) | null | undefined;

/** The process's CPU time in ms, or null where the runtime has no such clock (asked once). */
function cpuReader(): (() => number) | null {
  if (reader !== undefined) return reader;
  reader = null;
  const proc = (globalThis as { process?: Process }).process;
  if (typeof proc?.cpuUsage !== 'function') return reader;
  try {
    const probe = proc.cpuUsage();
    if (Number.isFinite(probe.user) && Number.isFinite(probe.system))
      reader = () => {
        const usage = proc.cpuUsage!();
        return (usage.user + usage.system) / 1000;
      };
  } catch {
    // A runtime that declares it but does not implement it: wall time only.
  }
  return reader;
}

let readAt = Number.NEGATIVE_INFINITY;
let readCpu = 0;

/**
 * The process's CPU time (ms) as read at most `timeoutMs / 4` before `now`, the wall-clock
 * start of a call under that deadline; NaN without a CPU clock. Keep it for {@link heldCpu}.
 */
export function cpuMark(now: number, timeoutMs: number): number {
  const age = now - readAt;
  // (Negative when the wall clock was set back: read again, the reading must predate `now`.)
  if (!(age >= 0 && age <= timeoutMs / 4)) {
    const read = cpuReader();
    if (!read) return Number.NaN;
    readAt = now;
    readCpu = read();
  }
  return readCpu;
}

/**
 * Whether a call that started at CPU time `mark` (from {@link cpuMark}) may have held the CPU
 * for its whole `timeoutMs`: always true without a CPU clock.
 */
export function heldCpu(mark: number, timeoutMs: number): boolean {
  if (Number.isNaN(mark)) return true;
  return reader!() - mark >= timeoutMs;
}
