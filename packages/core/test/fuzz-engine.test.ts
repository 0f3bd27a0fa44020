import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Channel, ChannelSink } from '../src/jsonrpc/index.ts';
import { fuzzParameters, withRejectionWatch } from './support/fuzz/settings.ts';
import { fuzzServer } from './support/fuzz/fuzz-server.ts';
import { heapAfterGc } from './support/fuzz/heap.ts';
import { conversation, render, type Step } from './support/fuzz/messages.ts';
import { checkConversation, countAnswers, Ledger } from './support/fuzz/oracle.ts';

const server = fuzzServer();
const tick = () => new Promise((r) => setImmediate(r));

/** One connection fed `steps` as raw frames; resolves with what the server wrote. */
async function converse(steps: readonly Step[]): Promise<{ problems: string[]; inFlight: number }> {
  let sink!: ChannelSink;
  const frames: string[] = [];
  const channel: Channel = {
    start: (s) => (sink = s),
    send: (frame) => void frames.push(frame),
    close: async () => {},
  };
  const connection = server.connect(channel);
  const ledger = new Ledger();
  const earlier: unknown[] = [];
  for (const step of steps) {
    if (step.kind === 'pause') await tick();
    const text = render(step, earlier);
    if (text === undefined) continue;
    if (step.kind === 'message' && 'method' in step.value && 'id' in step.value)
      earlier.push(step.value.id);
    ledger.sent(text);
    sink.frame(text);
  }
  // Everything owed an answer gets one within the guardrails' short timers.
  for (let i = 0; i < 400 && ledger.owed(countAnswers(frames)).length > 0; i++)
    await new Promise((r) => setTimeout(r, 5));
  await tick();
  await connection.close();
  // Closing aborts what is left; handlers that were already stopping settle within their timers.
  for (let i = 0; i < 200 && connection.engine.inFlight > 0; i++)
    await new Promise((r) => setTimeout(r, 5));
  return { problems: checkConversation(ledger, frames), inFlight: connection.engine.inFlight };
}

const property = fc.asyncProperty(conversation, async (steps) => {
  const { problems, inFlight } = await converse(steps);
  expect(problems).toEqual([]);
  expect(inFlight).toBe(0);
});

describe('fuzzing the JSON-RPC engine and protocol layer (in memory)', () => {
  it('answers every request exactly once with a schema-valid message, never crashes, keeps memory bounded', {
    timeout: 60_000 + fuzzParameters(150).numRuns * 50,
  }, async () => {
    const { rejections } = await withRejectionWatch(async () => {
      const parameters = fuzzParameters(150);
      await fc.assert(property, parameters);
      // Same number of runs again: what survives a full GC must not grow with them.
      const before = heapAfterGc();
      await fc.assert(property, { ...parameters, seed: parameters.seed + 1 });
      const growth = heapAfterGc() - before;
      expect(growth).toBeLessThan(16);
    });
    expect(rejections).toEqual([]);
    expect(server.connectionCount).toBe(0);
  });
});
