import type { McpServer } from '@mcp-fw/core';
import type { Supervisor } from './supervisor.js';

/**
 * The supervisor dressed as a server for core's own transports, so `mcp-fw dev` serves stdio
 * and HTTP exactly as production does (framing, stdout guard, sessions, security checks).
 * `serveStdio` and the HTTP handler use two members of a server: `connect`, and `registry.tool`
 * for the `x-mcp-header` checks of 2026-07-28 requests, answered from the child's tool list.
 */
export function relayServer(supervisor: Supervisor): McpServer {
  const facade = {
    connect: (channel: Parameters<McpServer['connect']>[0], mode: Parameters<McpServer['connect']>[1]) =>
      supervisor.connect(channel, mode),
    registry: { tool: (name: string) => supervisor.tool(name) },
  };
  return facade as unknown as McpServer;
}
