// A setup file of every project (vitest.config.ts): a file that leaves a fake clock on
// globalThis fails, naming what it left, instead of the files that run after it in a shared
// worker (real-timers.ts tells how that kept every call's context alive in core's worker).
// Registered first, this afterAll runs after the file's own hooks.
import { afterAll, vi } from 'vitest';
import { leftTimersMessage, restoreRealTimers } from './real-timers.ts';

afterAll(() => {
  // vitest does this after the file anyway; here first, so what it would put back is seen.
  vi.restoreAllMocks();
  const stillFake = vi.isFakeTimers();
  if (stillFake) vi.useRealTimers();
  const left = restoreRealTimers();
  if (stillFake || left.length > 0) throw new Error(leftTimersMessage(left, stillFake));
});
