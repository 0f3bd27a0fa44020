import { StartupError } from '../../registry/index.js';
import type { SessionStateBounds } from '../../stores/index.js';

/**
 * Bounds on what handlers keep in `ctx.state` (`createServer({ limits: { sessionState } })`).
 * A write beyond `maxKeys` or `maxBytes` is refused with a `LimitError` naming the option.
 *
 * @example
 * ```ts
 * createServer({ name: 'shop', version: '1', providers: [Cart], limits: { sessionState: { maxKeys: 20, maxBytes: 16_384 } } });
 * ```
 */
export interface SessionStateLimits {
  /** Keys one session may hold (default 100). */
  readonly maxKeys?: number;
  /** Bytes one session may hold, keys and JSON values counted in UTF-8 (default 64 KiB). */
  readonly maxBytes?: number;
  /**
   * How long a session's state outlives its last read or write, in ms (default 1 hour). A
   * legacy session's state also goes when the session ends.
   */
  readonly idleTimeoutMs?: number;
  /** Sessions whose state one process keeps in memory (default 10,000; the least recently used go first). */
  readonly maxSessions?: number;
}

/**
 * The defaults of {@link SessionStateLimits}, for a server that wants to scale them.
 *
 * @example
 * ```ts
 * const limits = { sessionState: { maxBytes: 4 * SESSION_STATE_DEFAULTS.maxBytes } };
 * ```
 */
export const SESSION_STATE_DEFAULTS = {
  maxKeys: 100,
  maxBytes: 64 * 1024,
  idleTimeoutMs: 60 * 60 * 1000,
  maxSessions: 10_000,
} as const;

/** The limits with their defaults, each checked at startup. */
export function sessionStateBounds(
  limits: SessionStateLimits | undefined,
): SessionStateBounds & { readonly maxSessions: number } {
  const bounds = { ...SESSION_STATE_DEFAULTS, ...stripUndefined(limits ?? {}) };
  for (const [name, value] of Object.entries(bounds)) {
    if (!Number.isInteger(value) || value < 1)
      throw new StartupError(
        'INVALID_LIMIT',
        `limits.sessionState.${name} must be a positive integer, got ${String(value)}. Fix: pass a whole number ≥ 1, or leave it out for the default (${SESSION_STATE_DEFAULTS[name as keyof typeof SESSION_STATE_DEFAULTS]}).`,
      );
  }
  return bounds;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
