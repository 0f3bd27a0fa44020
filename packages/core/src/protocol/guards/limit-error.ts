import { UserError } from '../../registry/index.js';

/** The guardrail that refused or stopped a call, by its option name. */
export type LimitName =
  | 'rateLimit'
  | 'timeoutMs'
  | 'concurrency'
  | 'maxResultBytes'
  | 'maxPendingClientRequests'
  | 'inputRounds'
  | 'tasks';

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
