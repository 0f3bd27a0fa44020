// punkpeye's fastmcp (the `fastmcp` package on npm), the most used TypeScript MCP framework
// besides the official SDK, serving the same tools as the other subjects: a comparison row.
// It runs on the official SDK 1.x underneath.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import {
  ADD_DESCRIPTION,
  ECHO_DESCRIPTION,
  extraToolCount,
  extraToolDescription,
  extraToolName,
  SERVER_NAME,
  SERVER_VERSION,
} from './workload.js';

// fastmcp's default logger writes debug lines to stdout, which in stdio mode corrupts the
// protocol stream; this one sends everything to stderr.
const toStderr = (...args: unknown[]) => console.error(...args);
const logger = { debug: toStderr, error: toStderr, info: toStderr, log: toStderr, warn: toStderr };

/** One fastmcp server with `add`, `echo` and `MCP_BENCH_TOOLS` extra tools. */
export function fastmcpServer(): FastMCP {
  // fastmcp pings clients and polls for roots by default; the other subjects do neither, so
  // both are off to keep the workload the same.
  const server = new FastMCP({
    name: SERVER_NAME,
    version: SERVER_VERSION as `${number}.${number}.${number}`,
    ping: { enabled: false },
    roots: { enabled: false },
    logger,
  });
  server.addTool({
    name: 'add',
    description: ADD_DESCRIPTION,
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b),
  });
  server.addTool({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => text,
  });
  const ExtraInput = z.object({ value: z.string().optional() });
  for (let i = 0, count = extraToolCount(); i < count; i++) {
    server.addTool({
      name: extraToolName(i),
      description: extraToolDescription(i),
      parameters: ExtraInput,
      execute: async () => 'ok',
    });
  }
  return server;
}
