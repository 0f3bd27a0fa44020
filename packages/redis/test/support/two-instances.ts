import { afterAll, beforeAll } from 'vitest';
import type { McpFwServer } from '@mcp-fw/core';
import { createHttpHandler, type McpHttpHandler, type SharedStore } from '@mcp-fw/core/http';
import { redisStore } from '@mcp-fw/redis';
import { RedisProcess } from './processes.ts';

/** Two instances of one server and what they share, for the tests of the calling describe. */
export interface TwoInstances {
  /** The redis-server both instances keep their shared state in. */
  readonly redis: RedisProcess;
  /** Each instance's own redisStore on it, in the order of {@link instances}. */
  readonly stores: SharedStore[];
  /** The two instances: in-process HTTP handlers, a caller being the bearer token it sends. */
  readonly instances: McpHttpHandler[];
}

/**
 * Two instances of `server()` as behind a load balancer (each its own process state and its own
 * redisStore on one redis-server), started in the calling describe's beforeAll and stopped in its
 * afterAll. The properties are there once beforeAll has run.
 *
 * @example
 * const cluster = twoInstancesOnRedis(() => createServer({ name: 'desk', version: '1.0.0', providers: [Desk] }));
 * it('…', async () => { const [one, two] = cluster.instances; … });
 */
export function twoInstancesOnRedis(server: () => McpFwServer): TwoInstances {
  const cluster = { stores: [], instances: [] } as unknown as {
    redis: RedisProcess;
    stores: SharedStore[];
    instances: McpHttpHandler[];
  };
  beforeAll(async () => {
    cluster.redis = await RedisProcess.start();
    cluster.stores.push(await redisStore(cluster.redis.url), await redisStore(cluster.redis.url));
    for (const store of cluster.stores)
      cluster.instances.push(
        createHttpHandler(server(), {
          store,
          authenticate: (req) => ({
            auth: { sub: req.header('authorization')?.replace('Bearer ', '') },
          }),
        }),
      );
  });
  afterAll(async () => {
    await Promise.all(cluster.instances.splice(0).map((i) => i.close()));
    await Promise.all(cluster.stores.splice(0).map((s) => s.close()));
    await cluster.redis?.stop();
  });
  return cluster;
}
