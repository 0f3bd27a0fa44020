export { Guards } from './guards.js';
export type { GuardedCall, Invocation, CallKind } from './call.js';
export { LimitError, type LimitName } from './limit-error.js';
export type { ServerLimits } from './limits.js';
export {
  DEFAULT_STATE_LIMITS,
  limitReached,
  type StateLimits,
  type StateLimitName,
} from './state-limits.js';
export type { StateBudget, OverBudget } from './state-budget.js';
export type { ConcurrencyLimits } from './concurrency.js';
export { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
export type { AuditEntry, AuditOptions, AuditOutcome, LimitRefusalEvent } from './audit.js';
export { defaultIdentify, type Identify } from './identity.js';
export type { ControlChars } from './sanitise.js';
