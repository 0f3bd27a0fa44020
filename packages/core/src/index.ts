// The runtime-neutral entry point: decorators, server construction, content helpers, errors.
// Node-specific transports live behind subpaths (`@mcp-fw/core/stdio`, `@mcp-fw/core/testing`).
import { useDecorator, type UseDecorator } from './decorators/index.js';
import type { Middleware } from './protocol/index.js';
export { Tool, Arg, Resource, Prompt, Scopes, View } from './decorators/index.js';

/**
 * Runs middleware around the calls of a class's members (on the class) or of one member (on a
 * method): tool calls, resource reads, prompt gets. Class middleware wraps member middleware,
 * and both run inside the server's (`server.use`). Stacked `@Use`s run top first. Works with
 * `experimentalDecorators` and with standard decorators.
 *
 * @example
 * ```ts
 * const logged: Middleware = async (ctx, next) => { console.error('calling', ctx.member?.name); return next(); };
 *
 * @Use(logged)
 * class Billing {
 *   @Use({ callTool: (ctx, next) => (ctx.auth ? next() : Promise.reject(new UserError('sign in first'))) })
 *   @Tool('Refunds an order')
 *   refund() { return 'refunded'; }
 * }
 * ```
 */
export function Use(...middleware: Middleware[]): UseDecorator {
  return useDecorator(middleware);
}
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
  ViewOptions,
  ViewCsp,
  ViewPermissions,
  ToolUi,
  ToolDeprecation,
  ToolUiOptions,
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
  type ServerSetting,
  type ListedMember,
  type MountOptions,
} from './server.js';
export { MemberControl, ResourceControl } from './protocol/server-members.js';
export {
  MemorySessionStates,
  SESSION_STATE_DEFAULTS,
  type SessionState,
  type SessionStateLimits,
} from './protocol/session-state/index.js';
export {
  Context,
  ClientCapabilityError,
  MissingCapabilityError,
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
  MiddlewareContext,
  type Middleware,
  type PassThrough,
  type PassThroughCall,
  type PassThroughMethod,
  type MiddlewareHooks,
  type Hook,
  type Next,
  type MemberInfo,
  type ReadResourceResult,
  type ListResult,
  type CompleteResult,
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
  namespaced,
  type ToolTransform,
  type ArgTransform,
  type ForwardCall,
  type MemberFilter,
  type MemberSelector,
  type ExposeAsTools,
  type ToolSearch,
  type CodeMode,
  type ScriptSandbox,
  type ScriptHost,
  type ScriptOutcome,
  toolSignatures,
  surfaceFingerprint,
  SURFACE_FINGERPRINT_KEY,
  type SkillSource,
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
export type { StandardSchemaV1, JsonSchema, Integer } from './schema/index.js';
export {
  StoreUnavailableError,
  type MessageBus,
  type SessionChange,
  type SessionRecord,
  type SessionRecordRefusal,
  type SessionRecords,
  type RecordedSessionState,
  type SessionStateBounds,
  type SessionStates,
  type SharedSessionLimits,
  type AnsweredRoundCaps,
  type AnsweredRoundRefusal,
  type SharedStore,
  type SharedTaskLimits,
  type StoredEvents,
  type TaskRecord,
  type TaskRecords,
} from './stores/index.js';
