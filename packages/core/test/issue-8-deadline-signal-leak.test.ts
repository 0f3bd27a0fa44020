import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

// Found by the soak benchmark (issue 8): under a timeout, ctx.signal came from AbortSignal.any,
// which Node 20 keeps alive while it has an abort listener — and handlers add one and never
// remove it. Every call leaked its signal (~4 KB).
//
// The calls run in a worker thread (fixtures/signal-leak-worker.mjs, on the built @mcp-fw/core),
// and each call's signal and context are watched through weak references there. This file's
// vitest worker is shared with other core files (vitest.config.ts): in full npm test runs, and
// never alone, something left there by another file kept every call of this test alive.
describe('a timeout with a handler that listens to ctx.signal', () => {
  it('keeps nothing of the call once it is answered', async () => {
    // No execArgv: the vitest worker's `--conditions @mcp-fw/source` would resolve core's .ts.
    const worker = new Worker(new URL('./fixtures/signal-leak-worker.mjs', import.meta.url), {
      execArgv: [],
    });
    const { watched, alive } = await new Promise<{ watched: number; alive: number }>(
      (resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      },
    );
    await worker.terminate();
    expect(watched).toBe(10_000);
    // The last calls' objects may still be referenced from the client's last answer.
    expect(alive).toBeLessThan(100);
  });
});
