import { performance } from 'node:perf_hooks';
import { cpuNanos, cpuTicksSplit, ioCalls } from './proc.js';
import { quantile } from './stats.js';

export interface Load {
  calls: number;
  /** Calls in flight at any time: one per worker (connection, or stdio slot). */
  inFlight: number;
  seconds: number;
  callsPerSecond: number;
  p50Us: number;
  p99Us: number;
  /** Server utime+stime (from /proc/<pid>/stat) per call. */
  cpuUsPerCall: number;
  /** The same split: the server's own code (utime) and the kernel on its behalf (stime). */
  userUsPerCall: number;
  systemUsPerCall: number;
  /** The same from per-thread schedstat, nanosecond resolution: a cross-check. */
  cpuUsPerCallSchedstat: number;
  /** The harness's own CPU per call: when it nears a whole CPU, the client is the bottleneck. */
  harnessCpuUsPerCall: number;
  /**
   * The server's read and write system calls per call: below 1 when it batches several calls per
   * read or write (stdio under load), which a slower client makes less likely.
   */
  readsPerCall: number;
  writesPerCall: number;
}

/**
 * `calls` calls spread over `workers`, each a closed loop with one call in flight, and the
 * server's CPU meanwhile. `progress` sees the running count after every answer.
 */
export async function load(
  pid: number,
  workers: readonly (() => Promise<void>)[],
  calls: number,
  ticksPerSecond: number,
  progress?: (done: number) => void,
): Promise<Load> {
  const latencies = new Float64Array(calls);
  let issued = 0;
  let done = 0;
  const loop = async (call: () => Promise<void>) => {
    while (issued < calls) {
      const slot = issued++;
      const sent = performance.now();
      await call();
      latencies[slot] = (performance.now() - sent) * 1000;
      progress?.(++done);
    }
  };
  const ticksBefore = cpuTicksSplit(pid);
  const nanosBefore = cpuNanos(pid);
  const ioBefore = ioCalls(pid);
  const harnessBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(workers.map(loop));
  const seconds = (performance.now() - started) / 1000;
  const ticksAfter = cpuTicksSplit(pid);
  const perCall = (ticks: number) => (ticks * 1e6) / ticksPerSecond / calls;
  const user = perCall(ticksAfter.user - ticksBefore.user);
  const system = perCall(ticksAfter.system - ticksBefore.system);
  const nanos = cpuNanos(pid) - nanosBefore;
  const io = ioCalls(pid);
  const harness = process.cpuUsage(harnessBefore);
  const sample = Array.from(latencies);
  return {
    calls,
    inFlight: workers.length,
    seconds,
    callsPerSecond: calls / seconds,
    p50Us: quantile(sample, 0.5),
    p99Us: quantile(sample, 0.99),
    cpuUsPerCall: user + system,
    userUsPerCall: user,
    systemUsPerCall: system,
    cpuUsPerCallSchedstat: nanos / 1000 / calls,
    harnessCpuUsPerCall: (harness.user + harness.system) / calls,
    readsPerCall: (io.reads - ioBefore.reads) / calls,
    writesPerCall: (io.writes - ioBefore.writes) / calls,
  };
}
