// The benchmark's mcp-fw server as a Cloudflare module worker: the same tools as
// http-mcp-fw-server.ts, 2026-07-28 calls in the Worker and legacy sessions in Durable Objects.
// run-runtimes bundles it as a Workers build is (scripts/workerd.mjs) and serves it in workerd.
import { mcpWorker } from '@mcp-fw/cloudflare';
import { benchServer } from './mcp-fw-tools.js';

const worker = mcpWorker({ server: () => benchServer(), sessions: 'MCP_SESSIONS' });
export default worker;
export const McpSessions = worker.SessionObject;
