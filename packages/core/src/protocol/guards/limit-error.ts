import { UserError } from '../../registry/index.js';

/** The guardrail that refused or stopped a call, by its option name. */
export type LimitName =
  | 'rateLimit'
  | 'timeoutMs'
  | 'concurrency'
  | 'maxResultBytes'
  | 'maxPendingClientRequests'
  | 'inputRounds'
  | 'tasks'
  | 'sessionState';

/**
 * A guardrail refused or stopped a call. The message is for the client and names the limit; a
 * tool call answers it as an `isError` result, a resource read or prompt as a JSON-RPC error.
 */
export class LimitError extends UserError {
  override name = 'LimitError';

  constructor(
    readonly limit: LimitName,
    message: string,
    /** When the call may be retried (rate limits). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * A shared store (Redis) that cannot be reached, met while checking a limit: the call is refused
 * as at a limit, with a short retry, rather than failing as an internal error.
 */
export function storeRefusal(limit: LimitName, error: unknown): LimitError {
  const seconds = (error as { retryAfterS?: unknown } | undefined)?.retryAfterS;
  const retryAfterMs = Math.max(1, typeof seconds === 'number' ? seconds : 1) * 1000;
  const detail = error instanceof Error ? error.message : String(error);
  return new LimitError(
    limit,
    `Service unavailable: ${detail}; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
    retryAfterMs,
  );
}
