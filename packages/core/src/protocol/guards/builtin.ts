import { promised, thenMaybe, type RateLimit } from '../../registry/index.js';
import type { Step } from '../middleware/compose.js';
import type { AuditLog } from './audit.js';
import type { GuardedCall } from './call.js';
import type { ConcurrencyLimiter } from './concurrency.js';
import type { OutputPolicy } from './output-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { hasDeadline, type ReportOverrun, type SharedDeadline, withTimeout } from './timeout.js';

/**
 * The guardrails as middleware steps on the chain every handler call runs through (see
 * `middleware/compose.ts`): each owns one duty and passes the call on with `next()`. They keep a
 * synchronous call synchronous where their duty allows, which user middleware (always
 * asynchronous) cannot; that is why they are steps of their own rather than user hooks.
 */
export type GuardStep = Step<GuardedCall>;

/** The audit log around everything (tool calls): one entry per call, whatever its outcome. */
export function auditStep(audit: AuditLog): GuardStep {
  return (call, next) => {
    if (call.kind !== 'tool') return next();
    const started = { at: Date.now(), clock: performance.now() };
    return promised(next).then(
      (result) => {
        audit.record(call, started, { result });
        return result;
      },
      (error: unknown) => {
        audit.record(call, started, { error });
        throw error;
      },
    );
  };
}

/**
 * The rate limit (tools): the member's own, else the server's. A 2026-07-28 call is counted
 * once, not per input round: a replayed call was counted in its first round.
 */
export function rateLimitStep(limiter: RateLimiter, serverDefault?: RateLimit): GuardStep {
  return (call, next) => {
    if (call.kind !== 'tool' || call.run?.replay) return next();
    const rate = call.limits.rateLimit ?? serverDefault;
    if (!rate) return next();
    return limiter.check(call, rate).then(next);
  };
}

/** The output policy: result size and control characters, once the handler answered in time. */
export function outputStep(output: OutputPolicy): GuardStep {
  return (call, next) => thenMaybe(next(), (result) => output.apply(call, result));
}

/**
 * The deadline, covering queueing and every input round: the shared server-wide timer unless
 * the member sets its own `timeoutMs`, or a replayed 2026-07-28 call's deadline started in an
 * earlier round (then a timer of its own).
 */
export function timeoutStep(
  serverMs: number,
  shared: SharedDeadline | undefined,
  overran: ReportOverrun,
): GuardStep {
  return (call, next) => {
    const own = call.limits.timeoutMs;
    if (own === undefined && !call.run?.replay && shared) return shared.run(call, next, AS_IS);
    const timeoutMs = own ?? serverMs;
    if (!hasDeadline(timeoutMs)) return next();
    return withTimeout(call, timeoutMs, () => promised(next), overran);
  };
}

/** The concurrency caps (per session, per server, with a queue). */
export function concurrencyStep(limiter: ConcurrencyLimiter): GuardStep {
  return (call, next) => limiter.run(call, () => promised(next));
}

// The shared deadline hands an in-time result on as it is (the output step comes after).
const AS_IS = { apply: (_call: unknown, value: unknown) => value };
