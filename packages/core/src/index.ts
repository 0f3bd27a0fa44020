// The runtime-neutral entry point: decorators, server construction, content helpers, errors.
// Node-specific transports live behind subpaths (`@mcp-fw/core/stdio`, `@mcp-fw/core/testing`).
export { Tool, Arg, Resource, Prompt, Scopes } from './decorators/index.js';
export type {
  ToolOptions,
  TaskMode,
  TaskOptions,
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
export {
  createServer,
  McpFwServer,
  McpServer,
  type ServerOptions,
  type ListedMember,
} from './server.js';
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
  type SampleResult,
  type SampledContent,
  type SampledToolUse,
  type SampledToolResult,
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
  type InputRoundSettings,
} from './protocol/index.js';
/** @deprecated Use {@link InputRoundSettings} (the type of `createServer({ inputRounds })`). */
export type { InputRoundSettings as InputSettings } from './protocol/index.js';
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
