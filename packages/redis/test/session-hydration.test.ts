import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, Resource } from '@mcp-fw/core';
import { createHttpHandler, type McpHttpHandler, type SharedStore } from '@mcp-fw/core/http';
import { redisStore } from '@mcp-fw/redis';
import { REDIS_SERVER, RedisProcess } from './support/processes.ts';
import { sseEvents, until } from './support/raw-http.ts';

// An instance that first meets a legacy session (here: its GET stream) copies the session's state
// from Redis and from then on hears the changes other instances publish. A change made elsewhere
// between that read and the bus subscription being in place must not be lost: here a
// resources/subscribe, which would leave the GET stream deaf to every update.

class Status {
  @Resource('status://now', { mimeType: 'text/plain' })
  now() {
    return 'now';
  }
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

async function post(mcp: McpHttpHandler, body: unknown, sid?: string) {
  const res = await mcp.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { ...HEADERS, ...(sid ? { 'mcp-session-id': sid } : {}) },
      body: JSON.stringify(body),
    }),
  );
  await res.text();
  return res;
}

/** A store whose bus subscriptions to session topics wait for `release()`. */
function gated(store: SharedStore): {
  store: SharedStore;
  waiting: () => boolean;
  release(): void;
} {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let waiting = false;
  const bus = {
    publish: (topic: string, message: string) => store.bus.publish(topic, message),
    subscribe: async (topic: string, listener: (message: string) => void) => {
      if (topic.startsWith('session:')) {
        waiting = true;
        await gate;
      }
      return store.bus.subscribe(topic, listener);
    },
  };
  return {
    store: new Proxy(store, {
      get: (target, key) => (key === 'bus' ? bus : Reflect.get(target, key)),
    }),
    waiting: () => waiting,
    release,
  };
}

describe.skipIf(REDIS_SERVER === undefined)('an instance new to a legacy session (Redis)', () => {
  let redis: RedisProcess;
  const stores: SharedStore[] = [];
  const instances: McpHttpHandler[] = [];

  beforeAll(async () => {
    redis = await RedisProcess.start();
    stores.push(await redisStore(redis.url), await redisStore(redis.url));
  });

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    await Promise.all(stores.map((s) => s.close()));
    await redis?.stop();
  });

  it('keeps a subscription made on another instance while it was still joining the session', async () => {
    const server = () => createServer({ name: 'status', version: '1.0.0', providers: [Status] });
    const b = gated(stores[1]);
    const first = server();
    const one = createHttpHandler(first, { store: stores[0] });
    const two = createHttpHandler(server(), { store: b.store });
    instances.push(one, two);

    const opened = await post(one, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    const sid = opened.headers.get('mcp-session-id')!;
    await post(one, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid);

    // The GET stream opens on instance two, which reads the session and starts to subscribe…
    const controller = new AbortController();
    const stream = two.fetch(
      new Request('http://127.0.0.1/mcp', {
        headers: {
          accept: 'text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': sid,
        },
        signal: controller.signal,
      }),
    );
    await until(b.waiting, 'instance two subscribing to the session');
    // …while the client subscribes to the resource on instance one.
    const subscribed = await post(
      one,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'status://now' } },
      sid,
    );
    expect(subscribed.status).toBe(200);
    b.release();

    const res = await stream;
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })();
    const updates = () =>
      sseEvents(text).filter((e) => e.data.includes('notifications/resources/updated')).length;

    // Raised on instance one, fanned out over Redis to the holder of the GET stream.
    for (let i = 0; i < 3; i++) first.resources.updated('status://now');
    await until(
      () => updates() === 3,
      `3 updates on the GET stream held by two (got ${updates()})`,
    );
    controller.abort();
  });
});
