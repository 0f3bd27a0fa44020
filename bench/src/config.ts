// Sizes of each phase, overridable from the environment (all positive integers).

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  }
  return value;
}

export const config = {
  warmupCalls: envInt('BENCH_WARMUP_CALLS', 10_000),
  sequentialCalls: envInt('BENCH_SEQUENTIAL_CALLS', 5_000),
  sequentialRuns: envInt('BENCH_SEQUENTIAL_RUNS', 5),
  // 200,000 so that even the bare floor accrues ~40 clock ticks (10 ms each) of CPU.
  pipelinedCalls: envInt('BENCH_PIPELINED_CALLS', 200_000),
  inFlight: envInt('BENCH_IN_FLIGHT', 64),
  coldSpawns: envInt('BENCH_COLD_SPAWNS', 10),
  listTools: envInt('BENCH_LIST_TOOLS', 1_000),
  listRequests: envInt('BENCH_LIST_REQUESTS', 200),
};

/** `BENCH_PIN=0` leaves the sequential runs unpinned (see `sequentialRuns`). */
export const pinSequential = process.env.BENCH_PIN !== '0';

/** The node binary that runs the servers: the harness's own, or `BENCH_NODE=/path/to/node`. */
export const serverRuntime = process.env.BENCH_NODE || process.execPath;

/** Extra node flags (e.g. `--cpu-prof`) for the server process that serves the call phases. */
export const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** `BENCH_SERVERS=mcp-fw,bare` measures a subset. */
export const selectedServers = process.env.BENCH_SERVERS?.split(',').filter(Boolean);
