/**
 * Whose calls share one rate-limit counter: the session (a connection; under 2026-07-28 over
 * HTTP, which has no sessions, the client address), the authenticated identity (`ctx.auth`, as
 * named by `limits.identify`; unauthenticated callers are counted per session), the client
 * address (per session when it is unknown, as on stdio), or every caller together (`global`).
 * The same words serve a tool's `rateLimit`, the server's `limits.rateLimit` and the HTTP
 * endpoint's `rateLimit` (where requests arrive before any session, so `session` means address).
 */
export type RateLimitKey = 'session' | 'identity' | 'address' | 'global';

/**
 * At most `max` calls in each window of `perMs` milliseconds, counted per `key` (default
 * `session`; `address` at the HTTP endpoint). A call over the limit is not run: the client gets
 * an `isError` result saying when to retry (at the HTTP endpoint, 429 with `Retry-After`). The
 * one shape of every rate limit: `@Tool({ rateLimit })`, `createServer({ limits: { rateLimit } })`
 * and `createHttpHandler(server, { rateLimit })`; all count in `limits.rateLimitStore`.
 *
 * @example
 * ```ts
 * @Tool({ description: 'Sends an email', input: Email, rateLimit: { max: 10, perMs: 60_000, key: 'identity' } })
 * send(email: z.infer<typeof Email>) { ... }
 * ```
 */
export interface RateLimit {
  /** Calls allowed per window (a positive integer). */
  readonly max: number;
  /** The window, in milliseconds. */
  readonly perMs: number;
  readonly key?: RateLimitKey;
}

/** The per-member limits a decorator may declare (server-wide defaults: `createServer({ limits })`). */
export interface MemberLimitOptions {
  /**
   * How long the handler may run, in milliseconds, before its `ctx.signal` aborts and the client
   * is told the call timed out. Overrides the server's `limits.timeoutMs` (default 5 minutes);
   * `Infinity` (or 0) turns the deadline off for this member. Under 2026-07-28 it covers every
   * input round of the call, including the client's time to answer.
   *
   * A synchronous handler (or a long synchronous stretch of an async one) cannot be stopped
   * in-process: if it holds the event loop past its deadline, it is reported on stderr and in
   * the audit log, and its call is answered with the timeout error, not its late result.
   *
   * @example
   * ```ts
   * @Tool({ description: 'Builds the index', input: Empty, timeoutMs: 30 * 60_000 })
   * buildIndex() { ... }
   *
   * @Tool({ description: 'Waits for a reviewer to approve', input: Empty, timeoutMs: Infinity })
   * async awaitApproval(_: object, ctx: Context) { ... }
   * ```
   */
  timeoutMs?: number;
}
