import { patience } from '../../../../test-support/patience.ts';

/**
 * Polls `condition` every 20 ms until it holds, failing after `timeoutMs` (on a quiet machine,
 * stretched by the load) with `what`: tests wait for reloads this way, never with fixed sleeps.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + patience(timeoutMs);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Calls `attempt` until it resolves to something `accept` takes, and returns that. */
export async function eventually<T>(
  attempt: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  let last: T | undefined;
  await until(async () => accept((last = await attempt())), what, timeoutMs);
  return last as T;
}
