// Who a task belongs to, and who may read it.
import type { RequestRecord } from '../request-record.js';
import type { Scope } from '../server-core.js';
import { clientKeyOf } from '../state-refusal.js';

const BEARER = 'bearer';

/**
 * Who a task belongs to: the authenticated principal (as `limits.identify` names it), else the
 * connection's session, else nobody in particular. A stateless 2026-07-28 request over HTTP
 * without authentication carries nothing that names its caller from one request to the next
 * (no session, and addresses are shared behind proxies and change on mobile networks), so there
 * the task id itself is the capability: 128 random bits that only the creator was told, as the
 * tasks extension allows. Anyone else gets "Task not found", as for an id that never existed.
 */
export function taskOwner(record: RequestRecord, scope: Scope): string {
  return taskOwnerOf(record.auth, scope);
}

/** {@link taskOwner} of a request that carried `auth`. */
export function taskOwnerOf(auth: unknown, scope: Scope): string {
  const identity = auth === undefined ? undefined : scope.core.guards.identify(auth);
  if (identity !== undefined) return `id:${identity}`;
  return scope.sessionId === undefined ? BEARER : `session:${scope.sessionId}`;
}

/**
 * The owner a new task is recorded under, which is what `limits.tasks.maxTasksPerOwner` counts:
 * the caller's {@link taskOwner}, except that a caller known only by its task ids (bearer) is
 * counted under its client key (address) like the other per-client caps, so one such client
 * cannot use up the budget of all of them. Ownership stays the id's (see {@link ownsTask}).
 */
export function taskRecordOwner(record: RequestRecord, scope: Scope): string {
  const owner = taskOwner(record, scope);
  return owner === BEARER ? `${BEARER}:${clientKeyOf(record, scope)}` : owner;
}

/** Whether `caller` (a {@link taskOwner}) may read a task recorded under `recorded`. */
export function ownsTask(caller: string, recorded: string): boolean {
  return caller === recorded || (caller === BEARER && recorded.startsWith(`${BEARER}:`));
}
