// One node of the cluster benchmark: the bench tools plus a resource whose updates fan out,
// served by serveHttp on a free port, its state in memory or (with --redis <url>) in Redis.
import { createServer, Resource, Tool, type McpServer } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { redisStore } from '@mcp-fw/redis';
import { z } from 'zod';
import { announce } from './http-server-life.js';

const Operands = z.object({ a: z.number(), b: z.number() });

class ClusterBench {
  constructor(private readonly server: () => McpServer) {}

  @Tool({ description: 'Adds two numbers', input: Operands })
  add({ a, b }: z.infer<typeof Operands>): string {
    return String(a + b);
  }

  @Tool({ description: 'Raises an update of bench://status', input: z.object({}) })
  touch(): string {
    this.server().resources.updated('bench://status');
    return 'ok';
  }

  @Resource('bench://status', { mimeType: 'text/plain' })
  status(): string {
    return 'ok';
  }
}

const server: McpServer = createServer({
  name: 'cluster-bench',
  version: '1.0.0',
  providers: [new ClusterBench(() => server)],
});
const at = process.argv.indexOf('--redis');
const store = at >= 0 ? await redisStore(process.argv[at + 1]) : undefined;
const { url } = await serveHttp(server, {
  port: 0,
  store,
  maxSessions: 100_000,
  maxSessionsPerClient: 100_000,
});
announce(url);
