import type { RequestRecord } from './request-record.js';
import type { Scope } from './server-core.js';

/**
 * The client a request counts against: its identity (`limits.identify`), else its address,
 * else its connection. Kinds are kept apart so an identity named like an address shares nothing.
 */
export function clientKeyOf(record: RequestRecord, scope: Scope): string {
  const identity = record.auth === undefined ? undefined : scope.core.guards.identify(record.auth);
  if (identity !== undefined) return `id:${identity}`;
  const address = record.request.remoteAddress;
  if (address !== undefined) return `ip:${address}`;
  return scope.sessionId === undefined ? 'unknown' : `conn:${scope.sessionId}`;
}

/** Records a refusal at a limit in the audit log and returns the error to answer it with. */
export function refused<TError extends Error>(
  record: RequestRecord,
  scope: Scope,
  limit: string,
  error: TError,
): TError {
  scope.core.guards.refused({
    limit,
    method: record.request.method,
    message: error.message,
    requestId: record.request.id,
    protocolVersion: record.protocolVersion,
    session: scope.sessionId,
    auth: record.auth,
    address: record.request.remoteAddress,
  });
  return error;
}
