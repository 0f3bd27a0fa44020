import { JsonRpcError, REQUEST_TIMEOUT_CODE } from '../../../jsonrpc/index.js';
import { ClientCapabilityError } from '../../client-capability.js';
import type { Asker, ClientRequestOptions } from '../../client-requests.js';
import { LimitError } from '../../guards/index.js';
import type { Scope } from '../../server-core.js';
import { refused } from '../../state-refusal.js';
import { INPUT_KEY_META } from '../extension-ids.js';

/**
 * Sends a real server→client request on the calling request's stream, tied to its signal (a
 * cancelled call cancels the question) and bounded by a timeout that names what timed out.
 */
export async function askOnChannel(
  asker: Asker,
  scope: Scope,
  method: string,
  params: unknown,
  options: ClientRequestOptions,
  /** False for a question of a task, which outlives the request that started it. */
  onRequestStream = true,
): Promise<unknown> {
  const { record } = asker;
  const timeoutMs = options.timeoutMs ?? scope.core.clientRequestTimeoutMs;
  const max = scope.core.guards.state.limits.maxPendingClientRequests;
  if (scope.engine.outboundPending >= max) {
    throw refused(
      record,
      scope,
      'maxPendingClientRequests',
      new LimitError(
        'maxPendingClientRequests',
        `${method} refused: ${max} requests to this client already await an answer (limits.maxPendingClientRequests); wait for them, or raise limits.maxPendingClientRequests`,
      ),
    );
  }
  // The handler's key for the question travels with it, so that a gateway turning this request
  // into a 2026-07-28 input round for its own client asks under the key the handler chose.
  if (options.key !== undefined) {
    const p = (params ?? {}) as { _meta?: object };
    params = { ...p, _meta: { ...p._meta, [INPUT_KEY_META]: options.key } };
  }
  try {
    return await scope.engine.request(method, params, {
      timeoutMs,
      signal: asker.signal ?? record.request.signal,
      relatedTo: onRequestStream ? record.request : undefined,
    });
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === REQUEST_TIMEOUT_CODE) {
      throw new ClientCapabilityError(`the client did not answer ${method} within ${timeoutMs} ms`);
    }
    throw error;
  }
}
