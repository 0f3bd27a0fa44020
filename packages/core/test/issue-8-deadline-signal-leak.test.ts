import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { heapAfterGc } from './support/fuzz/heap.ts';

// Found by the soak benchmark (issue 8): under a timeout, ctx.signal came from AbortSignal.any,
// which Node 20 keeps alive while it has an abort listener — and handlers add one and never
// remove it. Every call leaked its signal (~4 KB).
//
// Each call's signal and context are watched through weak references, not through the heap's
// size: this file shares its worker with others (vitest.config.ts), and what an earlier file
// left running there once grew the heap by 27 MiB during the calls (twice, in full npm test runs
// only), which said nothing about these calls.
const watched: WeakRef<object>[] = [];

class Waits {
  @Tool({ description: 'Waits a tick, stoppable', input: z.object({}), timeoutMs: 60_000 })
  wait(_: object, ctx: Context) {
    watched.push(new WeakRef(ctx.signal), new WeakRef(ctx));
    return new Promise<string>((resolve, reject) => {
      const timer = setImmediate(() => resolve('done'));
      ctx.signal.addEventListener('abort', () => {
        clearImmediate(timer);
        reject(ctx.signal.reason);
      });
    });
  }
}

describe('a timeout with a handler that listens to ctx.signal', () => {
  it('keeps nothing of the call once it is answered', async () => {
    const client = await connectTestClient(
      createServer({ name: 'w', version: '1', providers: [Waits] }),
    );
    for (let i = 0; i < 5000; i += 50)
      await Promise.all(Array.from({ length: 50 }, () => client.callTool('wait', {})));
    expect(watched).toHaveLength(10_000);
    // A weak reference's target is kept until the job that made it ends: collect after a tick.
    await tick();
    heapAfterGc();
    const alive = watched.filter((ref) => ref.deref() !== undefined).length;
    // The last calls' objects may still be referenced from the client's last answer.
    expect(alive).toBeLessThan(100);
    await client.close();
  });
});
