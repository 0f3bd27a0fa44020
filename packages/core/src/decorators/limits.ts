/**
 * Whose calls share one rate-limit counter: the session (a connection; under 2026-07-28 over
 * HTTP, which has no sessions, the client address), the authenticated identity (`ctx.auth`;
 * unauthenticated callers are counted per session), the client address (per session when it is
 * unknown, as on stdio), or every caller together (`global`).
 */
export type RateLimitKey = 'session' | 'identity' | 'address' | 'global';

/**
 * At most `max` calls in each window of `perMs` milliseconds, counted per `key` (default
 * `session`). A call over the limit is not run: the client gets an `isError` result saying when
 * to retry.
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
   * is told the call timed out; 0 turns the server default off for this member.
   */
  timeoutMs?: number;
}
