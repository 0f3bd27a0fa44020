/**
 * Fuzz runs are reproducible: a fixed seed, and a bounded number of runs in `npm test`
 * (`FUZZ_RUNS` raises it; `npm run fuzz` runs thousands). A failure prints its seed and path;
 * replay it with `FUZZ_SEED=<seed> FUZZ_PATH=<path>`.
 */
export function fuzzParameters(defaultRuns: number): {
  seed: number;
  numRuns: number;
  path?: string;
} {
  const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  return {
    seed: Number(process.env.FUZZ_SEED ?? 20260728),
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns,
    path: process.env.FUZZ_PATH,
  };
}

/** Collects unhandled promise rejections while `run` executes. */
export async function withRejectionWatch<T>(
  run: () => Promise<T>,
): Promise<{ result: T; rejections: unknown[] }> {
  const rejections: unknown[] = [];
  const listener = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const result = await run();
    // Rejections are reported after the microtask queue drains: give them a turn.
    await new Promise((r) => setTimeout(r, 20));
    return { result, rejections };
  } finally {
    process.off('unhandledRejection', listener);
  }
}
