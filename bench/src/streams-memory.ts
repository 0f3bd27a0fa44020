// What both servers of the ten-thousand-streams benchmark report about themselves: memory after
// full collections, and the garbage collector's pauses, so the harness can lay slow calls against
// them (a call is slow for the server's GC, the harness's own, or neither).
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';

/**
 * Two full collections (the servers run with --expose-gc), then the process's memory as JSON,
 * with `resources`: how many of each kind of handle and request keep the event loop busy
 * (`process.getActiveResourcesInfo()`: `Timeout` counts armed timers, `TCPSocketWrap` sockets).
 */
export function memoryReport(): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const resources: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
  return JSON.stringify({ ...process.memoryUsage(), resources });
}

/** One GC pause: when it started (ms since the epoch), how long it took (ms), its kind. */
export type Pause = [at: number, ms: number, kind: string];

// A 'gc' entry's detail.kind.
const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** Records every GC pause of this process from now on; `take()` returns and forgets them. */
export function recordPauses(): { take(): Pause[] } {
  let pauses: Pause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0;
      pauses.push([
        performance.timeOrigin + entry.startTime,
        entry.duration,
        KINDS[kind] ?? `${kind}`,
      ]);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    take() {
      const taken = pauses;
      pauses = [];
      return taken;
    },
  };
}
