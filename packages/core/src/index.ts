// The runtime-neutral entry point: decorators, server construction, content helpers, errors.
// Node-specific transports live behind subpaths (`@mcp-fw/core/stdio`, `@mcp-fw/core/testing`).
export { Tool, Arg } from './decorators/index.js';
export type { ToolOptions, ToolAnnotations, Icon, SchemaSource, ArgOptions } from './decorators/index.js';
export { createServer, McpServer, type ServerOptions } from './server.js';
export { Context, ErrorCode, LEGACY_REVISIONS, type Logger, type ClientInfo, type ClientCapabilities } from './protocol/index.js';
export { UserError, StartupError, type StartupErrorCode, type Provider, type ToolDefinition } from './registry/index.js';
export { text, image, audio, resourceLink, embeddedResource } from './registry/index.js';
export type {
  CallToolResult,
  ContentBlock,
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  ResourceContents,
  Annotations,
} from './registry/index.js';
export { JsonRpcError } from './jsonrpc/index.js';
export type { StandardSchemaV1, JsonSchema } from './schema/index.js';
