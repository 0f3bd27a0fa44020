import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatch, Watched } from '../src/transports/http/idle-watch.js';

// The body-idle limit of serveHttp shares one timer among every body being received
// (node-adapter.ts); security-http-timeouts.test.ts proves the 408 end to end, this the timing of
// each entry under the shared timer.
describe('IdleWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    // Spies first, while the fake clock is on: vitest keeps each spy's restore and runs them
    // all again after the file, so a spy on the fake setTimeout restored only then would put
    // it back on globalThis for good (test-support/real-timers.ts).
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('two bodies that stall at different times are each told idle idleMs after their own last activity', () => {
    const watch = new IdleWatch(1000);
    const told: string[] = [];
    const a = new Watched(() => told.push(`a@${Date.now() - 1_000_000}`));
    const b = new Watched(() => told.push(`b@${Date.now() - 1_000_000}`));
    watch.add(a);
    vi.advanceTimersByTime(300);
    watch.add(b);
    vi.advanceTimersByTime(400);
    watch.touch(a); // a's idle time restarts at 700: it now expires after b (1300)
    vi.advanceTimersByTime(599);
    expect(told).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(told).toEqual(['b@1300']);
    vi.advanceTimersByTime(399);
    expect(told).toEqual(['b@1300']);
    vi.advanceTimersByTime(1);
    expect(told).toEqual(['b@1300', 'a@1700']);
  });

  it('a body received in time is never told idle, and the timer stops once nothing is watched', () => {
    const watch = new IdleWatch(1000);
    const told = vi.fn();
    const entry = new Watched(told);
    watch.add(entry);
    vi.advanceTimersByTime(999);
    watch.remove(entry);
    vi.advanceTimersByTime(5000);
    expect(told).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('back-to-back bodies reuse the running timer rather than arming one each', () => {
    const watch = new IdleWatch(1000);
    const spy = vi.spyOn(globalThis, 'setTimeout');
    for (let i = 0; i < 100; i++) {
      const entry = new Watched(() => {
        throw new Error('not idle');
      });
      watch.add(entry);
      watch.touch(entry);
      watch.remove(entry);
    }
    expect(spy).toHaveBeenCalledTimes(1);
    // A late entry added while the running timer is due earlier is still told on time.
    vi.advanceTimersByTime(600);
    const late = vi.fn();
    watch.add(new Watched(late));
    vi.advanceTimersByTime(999);
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(late).toHaveBeenCalledOnce();
  });

  it('an entry removed by another entry being told idle is not told', () => {
    const watch = new IdleWatch(1000);
    const second = vi.fn();
    const b = new Watched(second);
    const a = new Watched(() => watch.remove(b));
    watch.add(a);
    watch.add(b);
    vi.advanceTimersByTime(1000);
    expect(second).not.toHaveBeenCalled();
  });
});
