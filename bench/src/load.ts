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
  /**
   * The harness's own CPU per call: when it nears a whole CPU, the client is the bottleneck.
   * NaN when the harness polls, since it then takes a whole CPU whatever it does.
   */
  harnessCpuUsPerCall: number;
  /**
   * The server's read and write system calls per call: below 1 when it batches several calls per
   * read or write (stdio under load), which a slower client makes less likely.
   */
  readsPerCall: number;
  writesPerCall: number;
}

/** How the harness waits for answers. */
export interface LoadOptions {
  /**
   * Keep the harness's event loop polling instead of sleeping until an answer arrives. A client
   * asleep on the same machine must be woken by the server's write, at the server's expense (on a
   * VM a cross-CPU wake-up traps to the hypervisor), and the slower a server answers, the more
   * often the client has fallen asleep: that cost grows with the gap to the floor, which never
   * pays it. A client on another machine costs the server no wake-up, nor does a polling one.
   */
  readonly poll?: boolean;
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
  options: LoadOptions = {},
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
  // A pending immediate makes libuv poll for I/O without blocking, so the loop never sleeps.
  let polling = options.poll === true;
  const poll = () => {
    if (polling) setImmediate(poll);
  };
  poll();
  try {
    await Promise.all(workers.map(loop));
  } finally {
    polling = false;
  }
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
    harnessCpuUsPerCall: options.poll ? Number.NaN : (harness.user + harness.system) / calls,
    readsPerCall: (io.reads - ioBefore.reads) / calls,
    writesPerCall: (io.writes - ioBefore.writes) / calls,
  };
}

/**
 * Windows of one subject taken at different times, as one: calls and seconds summed, every
 * per-call figure weighted by each window's calls. The p50 and p99 are so weighted too, an
 * approximation of the quantiles of all calls together.
 */
export function combineLoads(loads: readonly Load[]): Load {
  const calls = loads.reduce((sum, l) => sum + l.calls, 0);
  const mean = (f: (l: Load) => number) =>
    loads.reduce((sum, l) => sum + f(l) * l.calls, 0) / calls;
  const seconds = loads.reduce((sum, l) => sum + l.seconds, 0);
  return {
    calls,
    inFlight: loads[0]?.inFlight ?? 0,
    seconds,
    callsPerSecond: calls / seconds,
    p50Us: mean((l) => l.p50Us),
    p99Us: mean((l) => l.p99Us),
    cpuUsPerCall: mean((l) => l.cpuUsPerCall),
    userUsPerCall: mean((l) => l.userUsPerCall),
    systemUsPerCall: mean((l) => l.systemUsPerCall),
    cpuUsPerCallSchedstat: mean((l) => l.cpuUsPerCallSchedstat),
    harnessCpuUsPerCall: mean((l) => l.harnessCpuUsPerCall),
    readsPerCall: mean((l) => l.readsPerCall),
    writesPerCall: mean((l) => l.writesPerCall),
  };
}
