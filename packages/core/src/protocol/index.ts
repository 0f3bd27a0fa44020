export { ServerConnection } from './connection.js';
export { modeOf, type EraMode } from './eras/select.js';
export type { Era } from './eras/era.js';
export { Context } from './context.js';
export type { PassThrough, PassThroughCall, PassThroughMethod } from './pass-through.js';
export {
  Pipeline,
  MiddlewareContext,
  type Middleware,
  type MiddlewareHooks,
  type Hook,
  type Next,
  type MemberInfo,
  type ReadResourceResult,
  type ListResult,
  type CompleteResult,
} from './middleware/index.js';
export { ClientCapabilityError, MissingCapabilityError } from './client-capability.js';
export type { ClientRequestOptions, ElicitResult, SampleRequest } from './client-requests.js';
export type {
  SampleResult,
  SampledContent,
  SampledToolUse,
  SampledToolResult,
} from './sample-result.js';
export type { ContextLog } from './context-log.js';
export { LOG_LEVELS, type LogLevel } from './log-levels.js';
export { ListCache } from './list-cache.js';
export { ConnectionHub } from './hub.js';
export type { ListName } from './list-changed.js';
export { stderrLogger, type Logger } from './logger.js';
export { ErrorCode } from './error-codes.js';
export { LEGACY_REVISIONS, LATEST_LEGACY, type LegacyRevision } from './eras/revisions.js';
export type { ServerCore, ServerIdentity } from './server-core.js';
export type { ClientInfo, ClientCapabilities } from './request-record.js';
export { MODERN_REVISIONS, isModernRevision, requestEnvelope } from './eras/modern/envelope.js';
export { withTasksExtension } from './eras/modern/tasks-extension.js';
export { InputRuns, type InputRoundSettings } from './input/input-runs.js';
export { MemoryUsedRounds, type UsedRounds } from './input/used-rounds.js';
export type { InputRoundLimits } from './input/input-round-limits.js';
export { httpEraHooks } from './eras/http-eras.js';
export type { ToolLookup } from './eras/modern/http-ladder.js';
export { scopeLookup, type ScopeNeed } from './required-scopes.js';
export {
  Guards,
  LimitError,
  MemoryRateLimitStore,
  defaultIdentify,
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
  type LimitName,
  type LimitRefusalEvent,
} from './guards/index.js';
