// @mcp-fw/proxy: serves any MCP server — over HTTP or stdio, in either protocol era — as an
// mcp-fw server, and several as one gateway (`mcp-fw proxy`).

export {
  createProxy,
  ProxyServer,
  type McpServersConfig,
  type ProxyOptions,
  type UpstreamOptions,
} from './proxy.js';
export type { ProxyTask } from './mirror.js';
export type { McpServerEntry, ProxyTarget } from './target.js';
export type { UpstreamHealth, UpstreamState } from './upstream.js';
export { DEFAULT_SEPARATOR } from './naming.js';
