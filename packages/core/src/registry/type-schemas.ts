import type { MemberKey } from '../decorators/index.js';
import { isPlainObject, type JsonSchema } from '../schema/index.js';
import { StartupError } from './errors.js';

/**
 * What a method's TypeScript signature and JSDoc say, read at build time by
 * `@mcp-fw/typescript` (decorators run too late to see types, and most toolchains emit none).
 */
export interface TypeSchemaEntry {
  /** The arguments object; used when the decorator declares neither `input` nor `@Arg`. */
  readonly input?: JsonSchema;
  /** The structured result; used for tools when the decorator declares no `output`. */
  readonly output?: JsonSchema;
  /** The JSDoc summary; an explicit `description` wins. */
  readonly description?: string;
  /** Argument names in parameter order; absent when the method takes one arguments object. */
  readonly params?: readonly string[];
  /**
   * Paths of the `Date` values in the arguments (property names, `'*'` for every item, tuple
   * indexes): JSON carries date-time strings; the method is handed `Date`s.
   */
  readonly dates?: readonly (readonly (string | number)[])[];
}

/**
 * Schemas derived from TypeScript, per class name and then per method name, as written by
 * `npx mcp-fw-schemas` (a generated `schemas.gen.ts` exporting `schemas`).
 *
 * @example
 * ```ts
 * import { schemas } from './schemas.gen.js';
 * createServer({ name: 'weather', version: '1.0.0', providers: [Weather], schemas });
 * ```
 */
export type TypeSchemas = Readonly<Record<string, Readonly<Record<string, TypeSchemaEntry>>>>;

/** The command that (re)generates them, for startup messages. */
export const SCHEMAS_COMMAND = 'npx mcp-fw-schemas';

/** Checks the shape once at startup, so a hand-edited or foreign file fails here, not per call. */
export function typeSchemasOption(value: unknown): TypeSchemas | undefined {
  if (value === undefined) return undefined;
  const bad = (why: string) =>
    new StartupError(
      'INVALID_SCHEMA',
      `createServer: schemas ${why}. It takes the \`schemas\` export of the module ${SCHEMAS_COMMAND} writes.`,
    );
  if (!isPlainObject(value)) throw bad('must be an object keyed by class name');
  for (const [className, members] of Object.entries(value)) {
    if (!isPlainObject(members)) throw bad(`.${className} must be an object keyed by method name`);
    for (const [name, entry] of Object.entries(members)) {
      if (!isPlainObject(entry)) throw bad(`.${className}.${name} must be an object`);
      const { input, output, description, params } = entry;
      if (input !== undefined && !isPlainObject(input))
        throw bad(`.${className}.${name}.input must be a JSON Schema object`);
      if (output !== undefined && !isPlainObject(output))
        throw bad(`.${className}.${name}.output must be a JSON Schema object`);
      if (description !== undefined && typeof description !== 'string')
        throw bad(`.${className}.${name}.description must be a string`);
      if (
        params !== undefined &&
        !(Array.isArray(params) && params.every((p) => typeof p === 'string'))
      ) {
        throw bad(`.${className}.${name}.params must be an array of names`);
      }
      const { dates } = entry;
      const segment = (s: unknown) => typeof s === 'string' || typeof s === 'number';
      if (
        dates !== undefined &&
        !(Array.isArray(dates) && dates.every((d) => Array.isArray(d) && d.every(segment)))
      ) {
        throw bad(`.${className}.${name}.dates must be an array of paths`);
      }
    }
  }
  return value as TypeSchemas;
}

/**
 * The entries of one class: by its name and its ancestors' (the generator files a method under
 * the class that declares it; a subclass's own entries win), or, when a minifier renamed the
 * class (bundlers do, unlike method names), by the one class entry whose members are exactly
 * its decorated members.
 */
export function classSchemas(
  schemas: TypeSchemas | undefined,
  ctor: Function,
  memberKeys: readonly MemberKey[],
): Readonly<Record<string, TypeSchemaEntry>> | undefined {
  if (!schemas) return undefined;
  const chain: Readonly<Record<string, TypeSchemaEntry>>[] = [];
  for (
    let c: unknown = ctor;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    if (c.name && Object.hasOwn(schemas, c.name)) chain.unshift(schemas[c.name]);
  }
  if (chain.length) return Object.assign({}, ...chain);
  const wanted = [...new Set(memberKeys.filter((k): k is string => typeof k === 'string'))]
    .sort()
    .join('\0');
  const matches = Object.values(schemas).filter(
    (members) => Object.keys(members).sort().join('\0') === wanted,
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/** The entry of one member, if its class has one. */
export function typeSchemaOf(
  members: Readonly<Record<string, TypeSchemaEntry>> | undefined,
  key: MemberKey,
): TypeSchemaEntry | undefined {
  return members && typeof key === 'string' && Object.hasOwn(members, key)
    ? members[key]
    : undefined;
}

/**
 * Why a class has no entry although schemas were given, for the missing-schema message: it was
 * added after generation, or a bundler renamed it (minifiers do, unless told to keep names).
 */
export function missingClassHint(schemas: TypeSchemas | undefined, className: string): string {
  const known = Object.keys(schemas ?? {});
  return (
    ` The schemas given to createServer have no class ${className || '(anonymous)'} (they have ${known.length ? known.join(', ') : 'none'}): ` +
    `run ${SCHEMAS_COMMAND} again if the class is new; if a bundler renamed it, keep class names (esbuild: keepNames: true).`
  );
}

/**
 * A generated entry that no longer fits the method (a parameter added after generation) would
 * call it with arguments in the wrong places; refuse to start instead.
 */
export function checkFreshness(entry: TypeSchemaEntry, arity: number, origin: string): void {
  const params = entry.params ?? [];
  // The method's length counts parameters before the first default, plus the context.
  const expected = entry.params ? params.length + 1 : 2;
  if (arity > expected) {
    throw new StartupError(
      'MISSING_SCHEMA',
      `${origin} takes ${arity} parameters but its generated schema names ${entry.params ? `${params.length} (${params.join(', ') || 'none'})` : 'one arguments object'}: ` +
        `the signature changed after the schemas were generated. Fix: run ${SCHEMAS_COMMAND} again.`,
    );
  }
}

/**
 * The validated arguments with the date-time strings at `paths` turned into `Date`s, copying
 * only the objects on the way (the request's own objects are left as they came).
 */
export function reviveDates(
  value: unknown,
  paths: readonly (readonly (string | number)[])[],
): unknown {
  let result = value;
  for (const path of paths) result = reviveAt(result, path, 0);
  return result;
}

function reviveAt(node: unknown, path: readonly (string | number)[], at: number): unknown {
  if (at === path.length) return typeof node === 'string' ? new Date(node) : node;
  if (typeof node !== 'object' || node === null) return node;
  const segment = path[at];
  if (segment === '*') {
    if (Array.isArray(node)) return node.map((item) => reviveAt(item, path, at + 1));
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, reviveAt(item, path, at + 1)]),
    );
  }
  if (!Object.hasOwn(node, segment)) return node;
  const copy = (Array.isArray(node) ? [...node] : { ...node }) as Record<string | number, unknown>;
  copy[segment] = reviveAt((node as Record<string | number, unknown>)[segment], path, at + 1);
  return copy;
}
