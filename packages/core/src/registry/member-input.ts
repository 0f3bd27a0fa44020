import type { ArgRecord, Completer } from '../decorators/index.js';
import {
  schemaFromDesignType,
  toJsonSchema,
  type JsonSchema,
  type Validation,
  type ValidationIssue,
  type Validator,
  type ValidatorCompiler,
} from '../schema/index.js';
import { StartupError } from './errors.js';
import type { MemberMethod, MemberSource } from './member-method.js';
import { schemaOrStartupError } from './schema-source.js';
import { thenMaybe } from './maybe-async.js';
import {
  checkFreshness,
  reviveDates,
  SCHEMAS_COMMAND,
  type TypeSchemaEntry,
} from './type-schemas.js';

/** How a member's method takes its arguments, plus the advertised schema and its validator. */
export interface MemberInput {
  readonly schema: JsonSchema;
  readonly validate: Validator;
  /** Positional parameter names for `@Arg` methods; absent when the method takes `(args, ctx)`. */
  readonly positional?: readonly string[];
  /** Completion per argument name, from `@Arg(..., { complete })` and the decorator's `complete`. */
  readonly completers: ReadonlyMap<string, Completer>;
}

export interface MemberInputSpec {
  readonly origin: string;
  /** The decorator that exposed the member (`@Tool`, `@Prompt`, `@Resource`), for messages. */
  readonly decorator: string;
  /** Decorated under TC39 semantics, where parameter decorators never run. */
  readonly tc39?: boolean;
  readonly input: unknown;
  readonly args: readonly ArgRecord[];
  readonly arity: number;
  readonly paramTypes: readonly unknown[];
  readonly compiler: ValidatorCompiler;
  readonly complete?: Record<string, Completer>;
  /**
   * The schema when nothing declares one (resource templates: every variable a string). Without
   * it, a method that takes parameters but declares no schema is a startup error.
   */
  readonly fallback?: JsonSchema;
  /** The schema read from the method's TypeScript signature (`createServer({ schemas })`). */
  readonly derived?: TypeSchemaEntry;
  /** Appended to the missing-schema message (e.g. why the derived schemas have no entry). */
  readonly hint?: string;
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: {} });

/** Resolves a member's input from `input:`, from `@Arg` parameters, or to its fallback. */
export function resolveMemberInput(spec: MemberInputSpec): MemberInput {
  const resolved = resolveSchema(spec);
  const completers = new Map<string, Completer>(Object.entries(spec.complete ?? {}));
  for (const arg of spec.args)
    if (arg.complete) completers.set(arg.name, arg.complete as Completer);
  return { ...resolved, completers };
}

function resolveSchema(spec: MemberInputSpec): Omit<MemberInput, 'completers'> {
  const { origin, input, args, compiler } = spec;
  if (input !== undefined && args.length > 0) {
    throw new StartupError(
      'CONFLICTING_OPTIONS',
      `${origin} declares both @Tool({ input }) and @Arg parameters; use one of them.`,
    );
  }
  if (input !== undefined) {
    const schema = objectSchema(
      schemaOrStartupError(() => toJsonSchema(input, 'input'), origin, 'input'),
      origin,
      'input',
    );
    return {
      schema,
      validate: schemaOrStartupError(() => compiler.compile(input, schema), origin, 'input'),
    };
  }
  if (args.length > 0) return fromArgs(spec);
  if (spec.derived?.input) return fromDerived(spec.derived, spec);
  if (spec.fallback)
    return { schema: spec.fallback, validate: compiler.compile(spec.fallback, spec.fallback) };
  if (spec.arity > 0) throw missingSchema(spec);
  return {
    schema: EMPTY_OBJECT_SCHEMA,
    validate: compiler.compile(EMPTY_OBJECT_SCHEMA, EMPTY_OBJECT_SCHEMA),
  };
}

function missingSchema({ origin, decorator, tc39, hint }: MemberInputSpec): StartupError {
  const fromTypes =
    `read them from the TypeScript types: run ${SCHEMAS_COMMAND} and pass its module's export: createServer({ schemas }).` +
    (hint ?? '');
  if (tc39) {
    // tsc rejects a parameter decorator in this mode (TS1206) but still emits the class without
    // it under --noCheck (as `mcp-fw dev` compiles): the user's @Arg is gone without a trace.
    return new StartupError(
      'MISSING_SCHEMA',
      `${origin} takes parameters but declares no schema, and its class was compiled with standard ` +
        '(TC39) decorators because "experimentalDecorators" is off in the tsconfig.json that compiled it. ' +
        'In that mode parameter decorators such as @Arg are dropped (tsc reports TS1206 "Decorators are not ' +
        'valid here", which --noCheck hides). Fix: set "experimentalDecorators": true (and ' +
        `"emitDecoratorMetadata": true) in tsconfig.json, or declare the arguments with ` +
        `${decorator}({ input: z.object({ ... }) }), which works in both modes, or ${fromTypes}`,
    );
  }
  return new StartupError(
    'MISSING_SCHEMA',
    `${origin} takes parameters but declares no schema for them. Fix: add ` +
      `${decorator}({ input: z.object({ ... }) }), or name each parameter with @Arg('name', schema), or ${fromTypes}`,
  );
}

function fromDerived(
  derived: TypeSchemaEntry,
  spec: MemberInputSpec,
): Omit<MemberInput, 'completers'> {
  const { origin, compiler } = spec;
  checkFreshness(derived, spec.arity, origin);
  const schema = objectSchema(derived.input!, origin, 'derived input');
  const check = schemaOrStartupError(
    () => compiler.compile(schema, schema),
    origin,
    'derived input',
  );
  const dates = derived.dates;
  const validate: Validator = dates?.length
    ? (value) =>
        thenMaybe(
          check(value),
          (r): Validation => (r.ok ? { ok: true, value: reviveDates(r.value, dates) } : r),
        )
    : check;
  return derived.params ? { schema, validate, positional: derived.params } : { schema, validate };
}

/** Input schemas always describe an object (MCP requires it; clients break on `{}`). */
export function objectSchema(schema: JsonSchema, origin: string, what: string): JsonSchema {
  if (schema.type === 'object') return schema;
  if (schema.type === undefined) return { type: 'object', ...schema };
  throw new StartupError(
    'INVALID_SCHEMA',
    `${origin}: the ${what} schema must describe an object (it has type ${JSON.stringify(schema.type)}). ` +
      'Fix: wrap it, e.g. z.object({ value: ... }).',
  );
}

interface ResolvedArg {
  readonly name: string;
  readonly required: boolean;
  readonly validate: Validator;
}

function fromArgs(spec: MemberInputSpec): Omit<MemberInput, 'completers'> {
  const { origin, args, paramTypes, compiler } = spec;
  const byIndex = new Map(args.map((a) => [a.index, a]));
  const count = Math.max(spec.arity, ...args.map((a) => a.index + 1));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const resolved: ResolvedArg[] = [];
  for (let index = 0; index < count; index++) {
    const arg = byIndex.get(index);
    if (!arg) {
      // The last unnamed parameter is where the context goes.
      if (index === count - 1 && index >= args.length) break;
      throw new StartupError(
        'MISSING_SCHEMA',
        `${origin}: parameter #${index + 1} has no @Arg. Fix: decorate every argument parameter ` +
          "with @Arg('name', schema); only the last parameter may be left for the context.",
      );
    }
    const source = arg.schema ?? schemaFromDesignType(paramTypes[index]);
    if (source === undefined) {
      throw new StartupError(
        'MISSING_SCHEMA',
        `@Arg('${arg.name}') of ${origin} (parameter #${index + 1}) needs a schema: no schema was given ` +
          'and the compiler emitted no usable type for it. Fix: pass one, e.g. ' +
          `@Arg('${arg.name}', z.string()), or compile with "emitDecoratorMetadata" (tsc) and a ` +
          'string, number, boolean or array type.',
      );
    }
    const json = schemaOrStartupError(
      () => toJsonSchema(source, 'input'),
      origin,
      `@Arg('${arg.name}')`,
    );
    const { $schema: _dialect, ...property } = json;
    properties[arg.name] = arg.description
      ? { ...property, description: arg.description }
      : property;
    const isRequired = !(arg.optional ?? acceptsUndefined(source));
    if (isRequired) required.push(arg.name);
    const validate = schemaOrStartupError(
      () => compiler.compile(source, json),
      origin,
      `@Arg('${arg.name}')`,
    );
    resolved.push({ name: arg.name, required: isRequired, validate });
  }
  const schema: JsonSchema = {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
  };
  return { schema, validate: validateArgs(resolved), positional: resolved.map((a) => a.name) };
}

function acceptsUndefined(source: unknown): boolean {
  const std = (source as { '~standard'?: { validate: (v: unknown) => unknown } })['~standard'];
  if (!std) return false;
  const result = std.validate(undefined) as { issues?: unknown } | Promise<unknown>;
  return !(result instanceof Promise) && !result.issues;
}

function validateArgs(args: readonly ResolvedArg[]): Validator {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, issues: [{ path: '', message: 'arguments must be an object' }] };
    }
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const issues: ValidationIssue[] = [];
    const pending: Promise<void>[] = [];
    const collect = (name: string, r: Validation) => {
      if (r.ok) out[name] = r.value;
      else
        for (const i of r.issues)
          issues.push({ path: i.path ? `${name}.${i.path}` : name, message: i.message });
    };
    for (const arg of args) {
      const present = Object.hasOwn(input, arg.name) && input[arg.name] !== undefined;
      if (!present && arg.required) {
        issues.push({ path: arg.name, message: 'is required' });
        continue;
      }
      if (!present) continue;
      const r = arg.validate(input[arg.name]);
      if (r instanceof Promise) pending.push(r.then((v) => collect(arg.name, v)));
      else collect(arg.name, r);
    }
    const finish = (): Validation =>
      issues.length ? { ok: false, issues } : { ok: true, value: out };
    return pending.length ? Promise.all(pending).then(finish) : finish();
  };
}

/** The input of a decorated method, from its decorator options and its `@Arg` parameters. */
export function methodInput(
  source: MemberSource,
  method: MemberMethod,
  options: { input?: unknown; complete?: Record<string, Completer> },
  fallback?: JsonSchema,
): MemberInput {
  return resolveMemberInput({
    origin: method.origin,
    decorator: method.decorator,
    tc39: source.record.tc39,
    input: options.input,
    args: source.args,
    arity: method.arity,
    paramTypes: method.paramTypes,
    compiler: source.compiler,
    complete: options.complete,
    fallback,
    derived: source.derived,
    hint: source.schemasHint,
  });
}
