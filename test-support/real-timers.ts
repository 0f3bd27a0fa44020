import {
  clearImmediate,
  clearInterval,
  clearTimeout,
  setImmediate,
  setInterval,
  setTimeout,
} from 'node:timers';

// The globals a fake clock (vi.useFakeTimers) replaces that code under test arms and clears,
// each with Node's own.
const TIMERS: Record<string, unknown> = {
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  setImmediate,
  clearImmediate,
};

// The worker's own Date, kept from the first file of the worker (a setup file runs again before
// every file, and may run after a file that left a fake one).
const REAL_DATE = Symbol.for('mcp-fw.test.real-date');
const held = globalThis as { [REAL_DATE]?: DateConstructor };
held[REAL_DATE] ??= globalThis.Date;

/**
 * Puts Node's timers (and the worker's Date) back on `globalThis` where something else is there,
 * and returns the names it put back (none: nothing was left behind).
 *
 * In projects whose files share a worker (vitest.config.ts), a fake clock left on a global
 * outlives its file: code in later files arms its timers on a clock nobody advances, and their
 * callbacks (with everything they hold) are never run nor freed. It happened with
 * `vi.spyOn(globalThis, 'setTimeout')` made while fake timers were on: vitest keeps every
 * spy's restore and runs them all again after the file, which put the fake setTimeout back after
 * `vi.useRealTimers()` had taken it away, while clearTimeout stayed Node's. Every later call's
 * 60-second deadline timer was then kept by the dead clock, with the call's context.
 *
 * @example
 * afterAll(() => {
 *   const left = restoreRealTimers();
 *   if (left.length > 0) throw new Error(`left a fake ${left.join(', ')} behind`);
 * });
 */
export function restoreRealTimers(): string[] {
  const left: string[] = [];
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const [name, real] of Object.entries(TIMERS)) {
    if (globals[name] !== real) {
      left.push(name);
      globals[name] = real;
    }
  }
  const realDate = held[REAL_DATE]!;
  if (globalThis.Date !== realDate) {
    left.push('Date');
    globalThis.Date = realDate;
  }
  return left;
}

/**
 * Why a file fails that left `left` in place of Node's (or its fake timers on: `stillFake`),
 * and how to fix it.
 */
export function leftTimersMessage(left: readonly string[], stillFake = false): string {
  const what = [
    ...(stillFake ? ['fake timers on (vi.useFakeTimers() without vi.useRealTimers())'] : []),
    ...(left.length > 0 ? [`${left.join(', ')} on globalThis not Node's own`] : []),
  ].join(', and ');
  return (
    `this file left ${what} once its tests and hooks were done (and every vi.spyOn restored, ` +
    'as vitest does after a file): later files in this worker would arm timers on a fake clock ' +
    'nobody advances, which never fire and keep what they hold. Call vi.useRealTimers() in ' +
    'afterEach, and spy on a timer before vi.useFakeTimers(), or call vi.restoreAllMocks() ' +
    "before vi.useRealTimers(). Node's timers are back for the next file."
  );
}
