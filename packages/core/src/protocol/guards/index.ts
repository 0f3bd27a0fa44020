export { Guards } from './guards.js';
export type { GuardedCall, Invocation, CallKind } from './call.js';
export { LimitError, type LimitName } from './limit-error.js';
export type { ServerLimits } from './limits.js';
export type { ConcurrencyLimits } from './concurrency.js';
export { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
export type { AuditEntry, AuditOptions, AuditOutcome, LimitRefusalEvent } from './audit.js';
export { defaultIdentify, type Identify } from './identity.js';
export type { ControlChars } from './sanitise.js';
