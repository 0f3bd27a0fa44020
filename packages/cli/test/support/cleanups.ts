import { afterEach } from 'vitest';

/**
 * Registers an `afterEach` that runs what was added during the test, last first (temporary
 * projects, processes, clients), and returns the function that adds to it.
 */
export function cleanupAfterEach(): (cleanup: () => unknown) => void {
  let cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });
  return (cleanup) => void cleanups.push(cleanup);
}
