import type {} from 'reflect-metadata'; // its global Reflect.getMetadata/defineMetadata types
// Loads reflect-metadata before any decorated class, as this module is evaluated first: the
// static import on any runtime, a require on Node (load-metadata-node.ts says why).
import '#load-reflect-metadata';

// TypeScript-compiled TC39 decorators get `context.metadata === undefined` on Node 20, which has
// no Symbol.metadata (toolchain.md §3). This module is evaluated before any decorated class, so
// defining it here makes per-class metadata available under both compilers.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

const METADATA = (Symbol as unknown as { metadata: symbol }).metadata;
const RECORD = Symbol.for('mcp-fw.class-record');

export type MemberKey = string | symbol;

/** What one decorator call recorded; the scanner resolves it into a definition later. */
export interface MemberRecord<TOptions> {
  readonly key: MemberKey;
  readonly isStatic: boolean;
  readonly options: TOptions;
  /**
   * Recorded by a standard (TC39) decorator call: the class was compiled without
   * `experimentalDecorators`, so no parameter decorator (`@Arg`) of it can have run.
   */
  readonly tc39?: boolean;
}

export interface ArgRecord {
  readonly index: number;
  readonly name: string;
  readonly schema: unknown;
  readonly description?: string;
  readonly optional?: boolean;
  readonly complete?: unknown;
}

/** Raw records of one class (not its parents): per-kind member lists and `@Arg`s per method. */
export interface ClassRecord {
  readonly members: Map<string, MemberRecord<unknown>[]>;
  readonly args: Map<MemberKey, ArgRecord[]>;
}

/**
 * The record owned by `holder` (a constructor for legacy decorators, a `context.metadata`
 * object for TC39 ones). Own property only: TC39 metadata objects inherit from the parent
 * class's, and writing through the chain would leak a subclass's tools into its parent.
 */
export function ownRecord(holder: object): ClassRecord {
  if (Object.hasOwn(holder, RECORD)) return (holder as Record<symbol, ClassRecord>)[RECORD];
  const record: ClassRecord = { members: new Map(), args: new Map() };
  Object.defineProperty(holder, RECORD, { value: record, enumerable: false });
  return record;
}

/** The records of a class and its ancestors, parents first. */
export function classRecords(ctor: Function): ClassRecord[] {
  const records: ClassRecord[] = [];
  for (let c: unknown = ctor; typeof c === 'function' && c !== Function.prototype; ) {
    const fn = c as Function & Record<symbol, object | undefined>;
    if (Object.hasOwn(fn, RECORD)) records.push(ownRecord(fn));
    // Own only: a subclass without decorators inherits its parent's Symbol.metadata property.
    const tc39 = Object.hasOwn(fn, METADATA) ? fn[METADATA] : undefined;
    if (tc39 && Object.hasOwn(tc39, RECORD)) records.push(ownRecord(tc39));
    c = Object.getPrototypeOf(c);
  }
  return records.reverse();
}

export function recordMember(holder: object, kind: string, member: MemberRecord<unknown>): void {
  const { members } = ownRecord(holder);
  const list = members.get(kind) ?? [];
  // Instance members first, then static ones, each in declaration order: the order legacy
  // decorators run in. TC39 decorators run the static ones first; this keeps lists the same.
  const firstStatic = member.isStatic ? -1 : list.findIndex((m) => m.isStatic);
  if (firstStatic === -1) list.push(member);
  else list.splice(firstStatic, 0, member);
  members.set(kind, list);
}

export function recordArg(holder: object, key: MemberKey, arg: ArgRecord): void {
  const { args } = ownRecord(holder);
  const list = args.get(key) ?? [];
  list.push(arg);
  args.set(key, list);
}
