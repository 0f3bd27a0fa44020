// @mcp-fw/cloudflare: an mcp-fw server as a Cloudflare module worker (see worker.ts).
export { mcpWorker, type McpWorker, type McpWorkerOptions } from './worker.js';
export type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStubLike,
} from './bindings.js';
