import type { MemberKey } from './metadata.js';

/**
 * What a method's arguments parameter receives from its `input` schema: a Standard Schema's
 * output type (zod, valibot, arktype …). A JSON Schema object, or no schema, carries no type:
 * then anything is accepted.
 */
export type SchemaOutput<S> = [S] extends [{ readonly '~standard': { readonly types?: infer T } }]
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : Untyped
  : Untyped;

// The arguments of a schema without a TypeScript type.
// biome-ignore lint/suspicious/noExplicitAny: whatever the method declares is accepted, which only `any` expresses (`unknown` would reject every declared parameter type)
type Untyped = any;

/**
 * A method decorator whose signature makes TypeScript check, in both decorator modes, that the
 * method's first parameter accepts `TArgs`: `@Tool({ input: z.object({ a: z.number() }) })` on
 * `add({ a }: { a: string })` is a compile error naming both types.
 */
export type TypedMethodDecorator<TArgs> = {
  // experimentalDecorators: (prototype or class, name, descriptor).
  // `never[]`: the rest (a Context, …) may be of any type; only the first parameter is checked.
  <M extends (args: TArgs, ...rest: never[]) => unknown>(
    target: object,
    key: MemberKey,
    descriptor?: TypedPropertyDescriptor<M>,
  ): void;
  // Standard decorators: (method, context).
  (value: (args: TArgs, ...rest: never[]) => unknown, context: ClassMethodDecoratorContext): void;
};
