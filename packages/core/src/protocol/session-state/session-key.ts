import { UserError } from '../../registry/index.js';
import type { RequestRecord } from '../request-record.js';
import type { Scope } from '../server-core.js';

const NO_SESSION =
  'ctx.state has no session to keep state in: this stateless HTTP request belongs to no session, ' +
  'and it is not authenticated, so there is no caller to keep it for. ' +
  'Fix: protect the server (the auth options of serveHttp: state is then kept per authenticated caller), ' +
  'or carry what the tool needs in its arguments.';

/**
 * Which session a request's `ctx.state` belongs to. A connection with a session id (a legacy
 * session on any transport, a stdio connection in either era) is one; the shared stateless
 * connection of 2026-07-28 over HTTP has none, so there the authenticated caller is the
 * session: the same state on every instance, for every request that caller makes.
 */
export function sessionKeyOf(record: RequestRecord, scope: Scope): string {
  const id = scope.sessionId;
  if (id !== undefined) return connectionSessionKey(id);
  const identity = record.auth === undefined ? undefined : scope.core.guards.identify(record.auth);
  if (identity !== undefined) return `id:${identity}`;
  throw new UserError(NO_SESSION);
}

/** The session key of a connection's own session id. */
export function connectionSessionKey(sessionId: string): string {
  return `session:${sessionId}`;
}
