import type { RequestRecord } from '../request-record.js';
import type { Scope } from '../server-core.js';

/**
 * Who a task belongs to: the authenticated principal (as `limits.identify` names it), else the
 * connection's session, else nobody in particular. A stateless 2026-07-28 request over HTTP
 * without authentication carries nothing that names its caller from one request to the next
 * (no session, and addresses are shared behind proxies and change on mobile networks), so there
 * the task id itself is the capability: 128 random bits that only the creator was told, as the
 * tasks extension allows. Anyone else gets "Task not found", as for an id that never existed.
 */
export function taskOwner(record: RequestRecord, scope: Scope): string {
  const identity = record.auth === undefined ? undefined : scope.core.guards.identify(record.auth);
  if (identity !== undefined) return `id:${identity}`;
  return scope.sessionId === undefined ? 'bearer' : `session:${scope.sessionId}`;
}
