// The runtime-neutral entry point: decorators, server construction, content helpers, errors.
// Node-specific transports live behind subpaths (`@mcp-fw/core/stdio`, `@mcp-fw/core/testing`).
export { Tool, Arg, Resource, Prompt, Scopes } from './decorators/index.js';
export type {
  ToolOptions,
  ToolAnnotations,
  Icon,
  SchemaSource,
  ArgOptions,
  ResourceOptions,
  ResourceEntry,
  ResourceAnnotations,
  PromptOptions,
  Completer,
  RateLimit,
  RateLimitKey,
  MemberScopeOptions,
} from './decorators/index.js';
export { createServer, McpServer, type ServerOptions, type ListedMember } from './server.js';
export { MemberControl, ResourceControl } from './server-members.js';
export {
  Context,
  ClientCapabilityError,
  ErrorCode,
  LEGACY_REVISIONS,
  LOG_LEVELS,
  type LogLevel,
  type ContextLog,
  type ClientRequestOptions,
  type ElicitResult,
  type SampleRequest,
  type Logger,
  type ClientInfo,
  type ClientCapabilities,
  MemoryRateLimitStore,
  type ServerLimits,
  type ConcurrencyLimits,
  type StateLimits,
  DEFAULT_STATE_LIMITS,
  type RateLimitStore,
  type AuditEntry,
  type AuditOptions,
  type AuditOutcome,
  type Identify,
  type ControlChars,
  MemoryUsedRounds,
  type UsedRounds,
  type InputRoundLimits,
  type InputSettings,
} from './protocol/index.js';
export {
  UserError,
  StartupError,
  ResourceNotFoundError,
  type StartupErrorCode,
  type Provider,
  type TypeSchemas,
  type TypeSchemaEntry,
  type ToolDefinition,
  type GetPromptResult,
  type PromptMessage,
} from './registry/index.js';
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
export {
  StoreUnavailableError,
  type MessageBus,
  type SessionRecord,
  type SessionRecords,
  type SharedSessionLimits,
  type SharedStore,
  type StoredEvents,
} from './stores/index.js';
