// How a task that cannot be started is refused: at a cap, or with the shared store out of reach.
import { JsonRpcError } from '../../jsonrpc/index.js';
import { StoreUnavailableError } from '../../stores/index.js';
import { ErrorCode } from '../error-codes.js';

// Tasks end at any time (a cancel, the work finishing), and each one that ends frees its place.
const RETRY_AFTER_S = 30;

/**
 * A task refused at `limits.tasks.maxTasksPerOwner` (the caller's own share: HTTP 429) or
 * `maxTasks` (the server's: 503): -32000 with `data.limit` and `Retry-After`, as every refusal
 * at a cap on client-made state.
 */
export function taskLimitReached(
  limit: 'maxTasks' | 'maxTasksPerOwner',
  message: string,
): JsonRpcError {
  return new JsonRpcError(ErrorCode.LimitReached, message, {
    limit: `tasks.${limit}`,
    status: limit === 'maxTasksPerOwner' ? 429 : 503,
    retryAfterS: RETRY_AFTER_S,
  });
}

/**
 * What a failure of the task store becomes: a store out of reach is a 503 with `Retry-After`
 * (the client retries shortly), never an internal error; anything else is left as it is.
 */
export function taskStoreFailure(error: unknown): unknown {
  if (!(error instanceof StoreUnavailableError)) return error;
  return new JsonRpcError(
    ErrorCode.LimitReached,
    `Service unavailable: task refused, ${error.message}; retry in ${error.retryAfterS} s`,
    { limit: 'tasks.store', status: 503, retryAfterS: error.retryAfterS },
  );
}
