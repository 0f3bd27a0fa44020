import type { Completer } from './completion.js';
import type { SchemaSource } from './tool.js';
import { recordArg, type MemberKey } from './metadata.js';

/** Options of {@link Arg}. */
export interface ArgOptions {
  /** Shown to the model as the property's description. */
  description?: string;
  /** Marks a JSON-Schema or design-type argument as optional (zod optionals are detected). */
  optional?: boolean;
  /** Completion for prompt arguments and resource-template variables. */
  complete?: Completer;
}

/**
 * Names a positional parameter of a tool method and, optionally, gives its schema. Without a
 * schema the parameter's TypeScript type is used when the compiler emitted `design:paramtypes`
 * (string, number, boolean, array); otherwise the server refuses to start and says so.
 *
 * Parameter decorators exist only under `experimentalDecorators`; with standard decorators use
 * the `input` option of {@link Tool} instead.
 *
 * @example
 * ```ts
 * class Logistics {
 *   @Tool('Tracking events of an order')
 *   query_logistics(@Arg('order_id', z.string()) orderId: string) {
 *     return track(orderId);
 *   }
 * }
 * ```
 */
export function Arg(name: string, schema?: SchemaSource, options: ArgOptions = {}) {
  return (target: object, key: MemberKey | undefined, index: unknown): void => {
    if (typeof index !== 'number' || typeof key === 'object') {
      throw new TypeError(
        `@Arg('${name}') is a parameter decorator and needs "experimentalDecorators": true in ` +
          'tsconfig.json; with standard decorators declare the arguments with @Tool({ input: ... }) instead',
      );
    }
    if (key === undefined) {
      throw new TypeError(
        `@Arg('${name}') decorates a tool method's parameter, not a constructor's`,
      );
    }
    const holder =
      typeof target === 'function' ? target : (target as { constructor: Function }).constructor;
    recordArg(holder, key, { index, name, schema, ...options });
  };
}
