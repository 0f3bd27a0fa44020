import { usedMiddleware } from '../decorators/index.js';
import type { MemberSource } from './member-method.js';

const NONE: readonly unknown[] = Object.freeze([]);

/** The middleware `@Use` put on a member's class and on the member, outermost first. */
export function memberMiddleware(source: MemberSource): readonly unknown[] {
  const ctor =
    typeof source.receiver === 'function' ? source.receiver : source.receiver.constructor;
  const found = usedMiddleware(ctor, source.record.key);
  return found.length === 0 ? NONE : Object.freeze(found);
}
