// The Cloudflare module worker (wrangler.jsonc's `main`): 2026-07-28 requests served by the
// Worker, each legacy session held by a Durable Object (the MCP_SESSIONS binding).
import { mcpWorker } from '@mcp-fw/cloudflare';
import { createTemperatureServer, type Env } from './temperatures.js';

const worker = mcpWorker<Env>({
  server: (env) => createTemperatureServer(env),
  sessions: 'MCP_SESSIONS',
});

export default worker;
/** The Durable Object class of the MCP_SESSIONS binding. */
export const McpSessions = worker.SessionObject;
