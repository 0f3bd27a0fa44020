import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '@mcp-fw/core';
import type { SharedStore } from '@mcp-fw/core/http';
import { serveHttp } from '@mcp-fw/core/node';
import { redisStore } from '@mcp-fw/redis';
import { REDIS_SERVER, RedisProcess } from './support/processes.ts';
import { patience } from '../../../test-support/patience.ts';

// Closing what serveHttp(server, { store }) returned stops what sharing started on a real
// redis-server: the instance's task beat (the others read it as gone once the beat's
// time-to-live has passed) and its subscriptions on the store's bus.
describe.skipIf(REDIS_SERVER === undefined)('closing a served server stops its sharing', () => {
  let redis: RedisProcess;
  let store: SharedStore;
  let observer: SharedStore;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    store = await redisStore({ url: redis.url });
    observer = await redisStore({ url: redis.url });
  });

  afterAll(async () => {
    await store?.close();
    await observer?.close();
    await redis?.stop();
  });

  /** Subscribers of a channel of the store's bus (under its default `mcp:` prefix). */
  const subscribers = (topic: string) =>
    Number(redis.cli('PUBSUB', 'NUMSUB', `mcp:${topic}`).split('\n')[1]);

  /** Polls `check` until it holds, for at most `ms`. */
  async function until(check: () => Promise<boolean> | boolean, what: string, ms: number) {
    const end = Date.now() + patience(ms);
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('the node reads as not alive after the beat TTL, its topics are unsubscribed, and serving again shares again', async () => {
    const server = createServer({ name: 'closing', version: '1.0.0', providers: [] });
    const node = store.nodeId;
    const handle = await serveHttp(server, { port: 0, store });
    expect(await observer.tasks.alive(node)).toBe(true);
    expect(subscribers(`task:${node}`)).toBe(1);
    expect(subscribers('hub')).toBe(1);

    await handle.close();
    await until(
      () => subscribers(`task:${node}`) === 0 && subscribers('hub') === 0,
      'the bus subscriptions to end',
      5_000,
    );
    // A beat still running would keep it alive forever (it beats well within its TTL).
    await until(
      async () => !(await observer.tasks.alive(node)),
      'the node to read as gone',
      15_000,
    );

    // The same server and store, served again: sharing starts again.
    const again = await serveHttp(server, { port: 0, store });
    expect(await observer.tasks.alive(node)).toBe(true);
    expect(subscribers(`task:${node}`)).toBe(1);
    expect(subscribers('hub')).toBe(1);
    await again.close();
    await until(() => subscribers(`task:${node}`) === 0, 'the task topic to be left again', 5_000);
  }, 30_000);

  it('a shared store without trustedProxies or authenticate: the operator is told at startup what to set, before any lock-out', async () => {
    const said: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => said.push(args.join(' '));
    const server = createServer({ name: 'told', version: '1.0.0', providers: [] });
    try {
      const handle = await serveHttp(server, { port: 0, store });
      await handle.close();
      const trusting = await serveHttp(server, { port: 0, store, trustedProxies: ['10.0.0.1'] });
      await trusting.close();
    } finally {
      console.error = original;
    }
    const told = said.filter((line) => line.includes('without trustedProxies or authenticate'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/Set trustedProxies .*MCP_TRUSTED_PROXIES.*X-Forwarded-For/);
  });
});
