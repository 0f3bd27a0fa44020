// The ten-thousand-streams benchmark's mcp-fw server: `add`, `touch` (announces a change of the
// tool list to every stream that listens for one), `memory` (two full GCs, then
// process.memoryUsage()) and `pauses` (the GC pauses since it was last asked), over serveHttp
// with its defaults except the limits that cap how many clients one process holds, raised as a
// deployment serving that many would raise them.
import { createServer, type McpServer, Tool } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { z } from 'zod';
import { announce } from './http-server-life.js';
import { memoryReport, recordPauses } from './streams-memory.js';
import { STREAM_LIMIT_OPTIONS, STREAM_STATE_LIMITS } from './streams-limits.js';

const pauses = recordPauses();
const Operands = z.object({ a: z.number(), b: z.number() });

class StreamTools {
  constructor(private readonly server: () => McpServer) {}

  @Tool({ description: 'Adds two numbers', input: Operands })
  add({ a, b }: z.infer<typeof Operands>): string {
    return String(a + b);
  }

  @Tool({
    description: 'Announces a change of the tool list to every listener',
    input: z.object({}),
  })
  touch(): string {
    this.server().tools.changed();
    return 'ok';
  }

  @Tool({
    description: 'Collects garbage, then reports process.memoryUsage()',
    input: z.object({}),
  })
  memory(): string {
    return memoryReport();
  }

  @Tool({
    description: 'Reports the GC pauses since it was last asked',
    input: z.object({}),
  })
  pauses(): string {
    return JSON.stringify(pauses.take());
  }
}

const server: McpServer = createServer({
  name: 'streams-bench',
  version: '1.0.0',
  providers: [new StreamTools(() => server)],
  limits: STREAM_STATE_LIMITS,
});
const { url } = await serveHttp(server, { port: 0, ...STREAM_LIMIT_OPTIONS });
announce(url);
