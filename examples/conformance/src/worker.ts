// The conformance fixture as a Cloudflare module worker (`npm run start:workers -- --port N` serves
// it in workerd): 2026-07-28 requests in the Worker, legacy sessions in Durable Objects
// (@mcp-fw/cloudflare). No skills: a Worker has no folder to read them from.
import { mcpWorker } from '@mcp-fw/cloudflare';
import { buildConformanceServer } from './conformance-server.js';

const worker = mcpWorker({
  server: () => buildConformanceServer(),
  sessions: 'MCP_SESSIONS',
  // A `retry:` hint on priming events, as main.ts gives, for the suite's SSE polling scenario.
  http: { retryMs: 1000 },
});
export default worker;
export const McpSessions = worker.SessionObject;
