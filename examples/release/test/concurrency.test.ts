import { expect, it } from 'vitest';
import { connectTestClient } from '@mcp-fw/core/testing';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import type { ReleasePipeline, ReleaseStep } from '../src/pipeline.ts';
import { createReleaseServer } from '../src/server.ts';
import { until } from './sdk.ts';

/**
 * A pipeline whose steps end only when the test says so, per version. It ignores the signal on
 * purpose: stopping after a cancel is the tool's own job.
 */
class GatedPipeline implements ReleasePipeline {
  readonly running = new Map<
    string,
    { step: ReleaseStep; signal: AbortSignal; finish: () => void }
  >();

  run(step: ReleaseStep, version: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => this.running.set(version, { step, signal, finish: resolve }));
  }

  /** Waits until `version` is running `step`, and returns that call's signal. */
  async at(version: string, step: ReleaseStep): Promise<AbortSignal> {
    await until(() => this.running.get(version)?.step === step, `${version} at ${step}`);
    return this.running.get(version)!.signal;
  }

  finish(version: string): void {
    const running = this.running.get(version)!;
    this.running.delete(version);
    running.finish();
  }
}

// Lets every continuation of a finished step run (they are all microtasks).
const settle = () => new Promise((resolve) => setImmediate(resolve));

it('two concurrent publish_release calls keep their own progress token, signal and logs', async () => {
  const pipeline = new GatedPipeline();
  const server = createReleaseServer({ pipeline, confirmTimeoutMs: 5000 });
  const client = await connectTestClient(server, {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {} },
    handlers: { 'elicitation/create': () => ({ action: 'accept', content: { confirm: true } }) },
  });
  await client.request('logging/setLevel', { level: 'info' });

  const first = new AbortController();
  const second = new AbortController();
  const one = client.callTool(
    'publish_release',
    { version: '1.0.0' },
    { progressToken: 'first', signal: first.signal },
  );
  const two = client.callTool(
    'publish_release',
    { version: '2.0.0' },
    { progressToken: 'second', signal: second.signal },
  );
  const outcomes = Promise.allSettled([one, two]);

  await pipeline.at('1.0.0', 'tag');
  await pipeline.at('2.0.0', 'tag');
  pipeline.finish('1.0.0');
  pipeline.finish('2.0.0');
  const signalOne = await pipeline.at('1.0.0', 'build');
  const signalTwo = await pipeline.at('2.0.0', 'build');

  first.abort('first gave up');
  await until(() => signalOne.aborted, 'the first call to see its cancellation');
  expect(signalOne.reason).toBe('first gave up');
  expect(signalTwo.aborted).toBe(false);
  pipeline.finish('1.0.0'); // it stops here: no progress, log or response follows
  pipeline.finish('2.0.0');
  expect(await pipeline.at('2.0.0', 'upload')).toBe(signalTwo);
  pipeline.finish('2.0.0');
  await pipeline.at('2.0.0', 'announce');

  second.abort('second gave up');
  await until(() => signalTwo.aborted, 'the second call to see its cancellation');
  pipeline.finish('2.0.0');
  await settle();
  expect(await outcomes).toEqual([
    { status: 'rejected', reason: 'first gave up' },
    { status: 'rejected', reason: 'second gave up' },
  ]);

  // The server goes on serving, and a new call gets a fresh signal.
  const three = client.callTool(
    'publish_release',
    { version: '3.0.0' },
    { progressToken: 'third' },
  );
  for (const step of ['tag', 'build', 'upload', 'announce'] as const) {
    expect((await pipeline.at('3.0.0', step)).aborted).toBe(false);
    pipeline.finish('3.0.0');
  }
  expect(await three).toEqual({
    content: [{ type: 'text', text: 'Published 3.0.0 in 4 steps (tag, build, upload, announce).' }],
  });

  const allProgress = client.notifications.filter((n) => n.method === 'notifications/progress');
  const progress = (token: string) =>
    allProgress.filter((n) => n.params?.progressToken === token).map((n) => n.params);
  const steps = (version: string, names: string[]) => names.map((name) => `${name} ${version}`);
  expect(progress('first')).toEqual(
    steps('1.0.0', ['tag', 'build']).map((message, done) => ({
      progressToken: 'first',
      progress: done,
      total: 4,
      message,
    })),
  );
  expect(progress('second')).toEqual(
    steps('2.0.0', ['tag', 'build', 'upload', 'announce']).map((message, done) => ({
      progressToken: 'second',
      progress: done,
      total: 4,
      message,
    })),
  );
  expect(progress('third')).toHaveLength(4);
  expect(allProgress).toHaveLength(10);

  // Nothing is logged for a call once it is cancelled.
  const logs = client.notifications
    .filter((n) => n.method === 'notifications/message')
    .map((n) => n.params?.data);
  expect(logs).toEqual([
    '1.0.0: tag done',
    '2.0.0: tag done',
    '2.0.0: build done',
    '2.0.0: upload done',
    ...['tag', 'build', 'upload', 'announce'].map((step) => `3.0.0: ${step} done`),
  ]);

  // Each cancelled request was withdrawn by id, and nothing answered it.
  const sent = client.wire.filter((w) => w.dir === 'c2s').map((w) => JSON.parse(w.line));
  const received = client.wire.filter((w) => w.dir === 's2c').map((w) => JSON.parse(w.line));
  const callIds = sent.filter((m) => m.method === 'tools/call').map((m) => m.id);
  expect(sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params)).toEqual([
    { requestId: callIds[0], reason: 'first gave up' },
    { requestId: callIds[1], reason: 'second gave up' },
  ]);
  const answered = received.filter((m) => !m.method && m.id !== undefined).map((m) => m.id);
  expect(answered.filter((id) => callIds.includes(id))).toEqual([callIds[2]]);
  expect(checkServerLines(client.wire, '2025-11-25')).toEqual([]);
  await client.close();
});
