import type { MemberKey } from './metadata.js';

const CLASS_USE = Symbol.for('mcp-fw.class-middleware');
const MEMBER_USE = Symbol.for('mcp-fw.member-middleware');
const METADATA = (Symbol as unknown as { metadata: symbol }).metadata;

type Tc39Context = { kind: string; name?: MemberKey; metadata?: object };

/** What `@Use` decorates: a class (its every member) or one member method, in either mode. */
export type UseDecorator = {
  <T extends Function>(target: T, context?: unknown): void;
  (target: object, key: MemberKey, descriptor?: PropertyDescriptor): void;
};

/**
 * Records middleware for a class or a member; the protocol layer runs it (`Use` on the package
 * entry types it). Records only: stacked `@Use` decorators keep reading order, top first, though
 * decorators are applied bottom-up.
 */
export function useDecorator(middleware: readonly unknown[]): UseDecorator {
  const list = Object.freeze([...middleware]);
  return ((target: object, keyOrContext?: MemberKey | Tc39Context) => {
    if (typeof keyOrContext === 'object' && keyOrContext !== null) {
      if (keyOrContext.kind === 'class') return addClass(target, list);
      if (keyOrContext.kind !== 'method' || !keyOrContext.metadata)
        throw new TypeError(`@Use decorates classes and methods, not a ${keyOrContext.kind}`);
      return addMember(keyOrContext.metadata, keyOrContext.name as MemberKey, list);
    }
    if (keyOrContext === undefined) return addClass(target, list);
    const holder =
      typeof target === 'function' ? target : (target as { constructor: Function }).constructor;
    addMember(holder, keyOrContext, list);
  }) as UseDecorator;
}

function addClass(target: object, list: readonly unknown[]): void {
  const own = Object.hasOwn(target, CLASS_USE)
    ? (target as Record<symbol, readonly unknown[]>)[CLASS_USE]
    : [];
  Object.defineProperty(target, CLASS_USE, {
    value: Object.freeze([...list, ...own]),
    enumerable: false,
    configurable: true,
  });
}

function addMember(holder: object, key: MemberKey, list: readonly unknown[]): void {
  if (!Object.hasOwn(holder, MEMBER_USE))
    Object.defineProperty(holder, MEMBER_USE, { value: new Map(), enumerable: false });
  const byKey = (holder as Record<symbol, Map<MemberKey, readonly unknown[]>>)[MEMBER_USE];
  byKey.set(key, [...list, ...(byKey.get(key) ?? [])]);
}

/**
 * The middleware `@Use` put on a class (parents' first) and then on its member `key` (the
 * nearest class that declares some for it), outermost first.
 */
export function usedMiddleware(ctor: Function, key: MemberKey): readonly unknown[] {
  // The class and its ancestors, nearest first.
  const chain: Function[] = [];
  for (let c: unknown = ctor; typeof c === 'function' && c !== Function.prototype; ) {
    chain.push(c as Function);
    c = Object.getPrototypeOf(c);
  }
  const found: unknown[] = [];
  for (const c of [...chain].reverse()) {
    if (Object.hasOwn(c, CLASS_USE))
      found.push(...(c as unknown as Record<symbol, unknown[]>)[CLASS_USE]);
  }
  for (const c of chain) {
    const member = memberUse(c, key);
    if (member) return [...found, ...member];
  }
  return found;
}

function memberUse(ctor: Function, key: MemberKey): readonly unknown[] | undefined {
  const holders: unknown[] = [ctor];
  const tc39 = Object.hasOwn(ctor, METADATA)
    ? (ctor as unknown as Record<symbol, unknown>)[METADATA]
    : undefined;
  if (tc39) holders.push(tc39);
  for (const holder of holders) {
    if (typeof holder !== 'object' && typeof holder !== 'function') continue;
    if (holder === null || !Object.hasOwn(holder, MEMBER_USE)) continue;
    const list = (holder as Record<symbol, Map<MemberKey, readonly unknown[]>>)[MEMBER_USE].get(
      key,
    );
    if (list) return list;
  }
  return undefined;
}
