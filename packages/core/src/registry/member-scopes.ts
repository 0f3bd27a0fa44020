import { classScopes } from '../decorators/index.js';
import { StartupError } from './errors.js';
import type { MemberSource } from './member-method.js';

const NONE: readonly string[] = Object.freeze([]);
// RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The OAuth scopes a member requires: its own `scopes` option, else its class's `@Scopes`
 * default, else none. A malformed scope fails at startup, naming the member.
 */
export function memberScopes(
  declared: unknown,
  source: MemberSource,
  origin: string,
): readonly string[] {
  const ctor =
    typeof source.receiver === 'function' ? source.receiver : source.receiver.constructor;
  const scopes = declared ?? classScopes(ctor);
  if (scopes === undefined) return NONE;
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string' && SCOPE_TOKEN.test(s))
  ) {
    throw new StartupError(
      'INVALID_SCOPES',
      `${origin}: scopes must be a list of OAuth scope tokens (no spaces or quotes), got ${JSON.stringify(scopes)}. Fix: e.g. scopes: ['notes:read'].`,
    );
  }
  return Object.freeze([...new Set(scopes as string[])]);
}
