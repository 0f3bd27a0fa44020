import { RequestTimeoutError } from '@mcp-fw/client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { type Deadline, Deadlines } from '../src/deadlines.ts';

// The pass-through's timeoutMs without a timer per call (src/deadlines.ts): one timer per
// upstream, a queue in start order.

/** A caller that never cancels, and what each call's request was given up with. */
function call(deadlines: Deadlines, what = 'tools/call "t"') {
  const call = { reason: undefined as unknown };
  const deadline = deadlines.start({ onAbort: () => {} }, what);
  deadline.onAbort((reason) => (call.reason = reason));
  return { deadline, call };
}

// A full GC without starting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadlines', () => {
  it('a call past the timeoutMs is given up with a RequestTimeoutError, in start order, and an ended call never is', async () => {
    const deadlines = new Deadlines(60);
    const first = call(deadlines, 'tools/call "first"');
    const ended = call(deadlines);
    await sleep(30);
    const second = call(deadlines, 'tools/call "second"');
    deadlines.end(ended.deadline);
    await sleep(45); // first is past its deadline, second is not
    expect(first.call.reason).toBeInstanceOf(RequestTimeoutError);
    expect((first.call.reason as Error).message).toMatch(
      /tools\/call "first" \(through the proxy\) got no answer within 60 ms/,
    );
    expect(second.call.reason).toBeUndefined();
    await sleep(40);
    expect(second.call.reason).toBeInstanceOf(RequestTimeoutError);
    expect(ended.call.reason).toBeUndefined();
    expect(deadlines.waiting).toBe(0);
    expect(deadlines.held).toBe(0);
    deadlines.close();
  });

  it("a caller's cancel reaches the request through its deadline", () => {
    const deadlines = new Deadlines(60_000);
    let cancel: ((reason: unknown) => void) | undefined;
    const deadline = deadlines.start({ onAbort: (listener) => (cancel = listener) }, 'x');
    let reason: unknown;
    deadline.onAbort((r) => (reason = r));
    cancel?.('cancelled by client');
    expect(reason).toBe('cancelled by client');
    deadlines.end(deadline);
    deadlines.close();
  });

  it('a stuck call keeps the deadline queue bounded while thousands of calls behind it end', () => {
    const deadlines = new Deadlines(60_000);
    call(deadlines); // never ends
    for (let i = 0; i < 20_000; i++) deadlines.end(call(deadlines).deadline);
    expect(deadlines.waiting).toBe(1);
    expect(deadlines.held).toBeLessThanOrEqual(2050);
    deadlines.close();
  });

  it("a timeoutMs past setTimeout's range waits instead of firing at once", async () => {
    const deadlines = new Deadlines(1e10);
    const waiting = call(deadlines);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await sleep(30);
      expect(waiting.call.reason).toBeUndefined();
      // Not re-armed every millisecond either.
      expect(timers.mock.calls.filter(([, ms]) => ms !== 30)).toHaveLength(0);
    } finally {
      timers.mockRestore();
    }
    deadlines.close();
  });
  it('an ended call the queue moved past is no longer held, while a later call still waits', async () => {
    const deadlines = new Deadlines(60_000);
    let waiting!: Deadline;
    const started = () => {
      const ended = call(deadlines).deadline;
      waiting = call(deadlines).deadline;
      deadlines.end(ended);
      return new WeakRef(ended);
    };
    const ended = started();
    await sleep(0); // a WeakRef holds its target until the job that made it is over
    gc();
    expect(ended.deref()).toBeUndefined();
    expect(deadlines.waiting).toBe(1);
    deadlines.end(waiting);
    deadlines.close();
  });
});
