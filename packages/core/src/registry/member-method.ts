import type { ArgRecord, MemberRecord } from '../decorators/index.js';
import type { ValidatorCompiler } from '../schema/index.js';
import { StartupError } from './errors.js';
import type { TypeSchemaEntry } from './type-schemas.js';

/** One decorated method, as the scanner hands it to the per-kind builders. */
export interface MemberSource {
  readonly className: string;
  /** The object the method is called on: the instance, or the class for static methods. */
  readonly receiver: object;
  readonly record: MemberRecord<unknown>;
  readonly args: readonly ArgRecord[];
  readonly compiler: ValidatorCompiler;
  /** What the method's TypeScript signature says, when `createServer({ schemas })` has it. */
  readonly derived?: TypeSchemaEntry;
  /** Added to a missing-schema message when the schemas have no entry for the class. */
  readonly schemasHint?: string;
}

export interface MemberMethod {
  /** `Class.method`, for messages. */
  readonly origin: string;
  /** The decorator that exposed it (`@Tool`, `@Prompt`, `@Resource`), for messages. */
  readonly decorator: string;
  readonly fn: (...args: unknown[]) => unknown;
  readonly arity: number;
  readonly paramTypes: readonly unknown[];
}

export function memberMethod(source: MemberSource, decorator: string): MemberMethod {
  const { className, receiver, record } = source;
  const origin = `${className}.${String(record.key)}`;
  const fn = (receiver as Record<string | symbol, unknown>)[record.key];
  if (typeof fn !== 'function') {
    throw new StartupError(
      'INVALID_PROVIDER',
      `${origin} is decorated with ${decorator} but is not a method.`,
    );
  }
  const paramTypes =
    (Reflect.getMetadata('design:paramtypes', receiver, record.key) as unknown[]) ?? [];
  return { origin, decorator, fn: fn as MemberMethod['fn'], arity: fn.length, paramTypes };
}

/** Calls the method as `(args, ctx)`, or as `(...@Arg params, ctx)` when it names its parameters. */
export function makeHandler(
  method: MemberMethod,
  receiver: object,
  positional: readonly string[] | undefined,
): (args: unknown, ctx: unknown) => unknown {
  const { fn } = method;
  if (!positional) return (args, ctx) => fn.call(receiver, args, ctx);
  return (args, ctx) => {
    const values = args as Record<string, unknown>;
    const params = positional.map((n) => values[n]);
    params.push(ctx);
    return fn.apply(receiver, params);
  };
}

// The spec's tool-name rule (2025-11-25 "Tool names"): 1–128 characters of A-Z a-z 0-9 _ - .
// Prompts follow it too, so every name works as a slash command in every client.
const MEMBER_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function memberName(
  options: { name?: string },
  source: MemberSource,
  origin: string,
  kind: string,
): string {
  const key = source.record.key;
  const name = options.name ?? (typeof key === 'string' ? key : undefined);
  if (name === undefined || !MEMBER_NAME.test(name)) {
    throw new StartupError(
      'INVALID_NAME',
      `${origin}: invalid ${kind} name ${JSON.stringify(name ?? String(key))}. ${kind[0].toUpperCase()}${kind.slice(1)} names are 1–128 ` +
        `characters of A-Z, a-z, 0-9, '_', '-' and '.'. Fix: @${kind[0].toUpperCase()}${kind.slice(1)}({ name: 'valid_name' }).`,
    );
  }
  return name;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
