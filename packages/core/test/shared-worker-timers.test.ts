import * as nodeTimers from 'node:timers';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { leftTimersMessage, restoreRealTimers } from '../../../test-support/real-timers.ts';
import { heapAfterGc } from './support/fuzz/heap.ts';

// Core's files share a vitest worker (vitest.config.ts). In full npm test runs every in-memory
// call of a file that ran after idle-watch.test.ts stayed alive: that file spied on setTimeout
// while its fake clock was on, and vitest, which runs every spy's restore again after a file,
// put the fake setTimeout back on globalThis after vi.useRealTimers() (clearTimeout stayed
// Node's). Each call's deadline timer then sat in the dead clock with the call's context:
// globalThis.setTimeout → clock.timers → the timer's callback → the call's Deadline → its
// AbortController's signal → the handler's abort listener → ctx.
// test-support/real-timers-setup.ts now fails a file that leaves such a clock behind.

/** The way idle-watch.test.ts left a fake setTimeout behind, ending as vitest ends a file. */
function leaveFakeSetTimeout(): void {
  vi.useFakeTimers();
  vi.spyOn(globalThis, 'setTimeout').mockRestore();
  vi.useRealTimers();
  vi.restoreAllMocks();
}

afterEach(() => {
  restoreRealTimers();
});

describe('a fake clock left on globalThis in a shared worker', () => {
  it("a spy on a faked setTimeout, restored again after the file, is found and Node's setTimeout put back", () => {
    leaveFakeSetTimeout();
    // vitest's own doing (4.1): were this to stop, the guard would have nothing to catch here.
    expect(globalThis.setTimeout).not.toBe(nodeTimers.setTimeout);
    expect(globalThis.clearTimeout).toBe(nodeTimers.clearTimeout);
    const left = restoreRealTimers();
    expect(left).toEqual(['setTimeout']);
    expect(globalThis.setTimeout).toBe(nodeTimers.setTimeout);
    expect(restoreRealTimers()).toEqual([]);
    const message = leftTimersMessage(left);
    expect(message).toContain('setTimeout');
    expect(message).toContain('vi.restoreAllMocks() before vi.useRealTimers()');
  });

  it('a file that leaves its fake timers on is told to call vi.useRealTimers()', () => {
    expect(leftTimersMessage([], true)).toMatch(/fake timers on .*vi\.useRealTimers\(\)/);
  });

  it("a fake setTimeout left behind keeps every timed call's context alive, and no call's once Node's is put back", async () => {
    const watched: WeakRef<Context>[] = [];
    class Waits {
      @Tool({ description: 'Waits a tick', input: z.object({}), timeoutMs: 60_000 })
      wait(_: object, ctx: Context) {
        watched.push(new WeakRef(ctx));
        return new Promise<string>((resolve, reject) => {
          const timer = setImmediate(() => resolve('done'));
          ctx.signal.addEventListener('abort', () => {
            clearImmediate(timer);
            reject(ctx.signal.reason);
          });
        });
      }
    }
    const client = await connectTestClient(
      createServer({ name: 'w', version: '1', providers: [Waits] }),
    );
    const alive = async () => {
      // A weak reference's target is kept until the job that made it ends: collect after a tick.
      await tick();
      heapAfterGc();
      return watched.filter((ref) => ref.deref() !== undefined).length;
    };
    const calls = async () => {
      for (let i = 0; i < 200; i += 50)
        await Promise.all(Array.from({ length: 50 }, () => client.callTool('wait', {})));
    };
    try {
      leaveFakeSetTimeout();
      await calls();
      expect(await alive()).toBe(200);
      // The calls made so far stay in the dead clock for good (every vi.spyOn mock, kept by
      // vitest for the worker's life, holds the fake setTimeout it was made on, and so its
      // clock); the calls made once Node's setTimeout is back are freed.
      expect(restoreRealTimers()).toEqual(['setTimeout']);
      watched.length = 0;
      await calls();
      expect(await alive()).toBeLessThan(10);
    } finally {
      await client.close();
    }
  });
});
