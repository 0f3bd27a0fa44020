import {
  isPlainObject,
  toJsonSchema,
  ValidatorCompiler,
  type JsonSchema,
  type Validation,
  type ValidationIssue,
  type Validator,
} from '../schema/index.js';
import { InvalidArgumentsError, StartupError } from './errors.js';
import { thenMaybe } from './maybe-async.js';
import { deepFreeze } from './member-method.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * How one argument of a transformed tool changes. Everything is optional; an argument not
 * named keeps its name, schema and description.
 *
 * @example
 * ```ts
 * server.transform('weather_get_forecast', {
 *   args: {
 *     units: { hide: true, value: 'metric' }, // clients never see or send it
 *     city: { name: 'location', description: 'A city name, e.g. Paris' },
 *     days: { type: { type: 'integer', minimum: 1, maximum: 3 }, default: 1 },
 *   },
 * });
 * ```
 */
export interface ArgTransform {
  /** The name clients send it under. */
  readonly name?: string;
  /** The description clients read. */
  readonly description?: string;
  /**
   * Removes it from the input schema. A required argument needs a `value` (or `default`): that
   * value is passed on every call; an optional one without it gets the original's default.
   */
  readonly hide?: boolean;
  /** The value a hidden argument always has. */
  readonly value?: unknown;
  /** A default shown to clients and used when they leave the argument out (or, hidden, its value). */
  readonly default?: unknown;
  /**
   * A narrower schema for it (JSON Schema or a Standard Schema such as zod): clients see it and
   * calls are checked against it, and then against the original, so it can only narrow.
   */
  readonly type?: unknown;
  /** `true` makes an optional argument required. */
  readonly required?: boolean;
}

/** What a {@link ToolTransform.wrap} function is given besides the arguments. */
export interface ForwardCall<Ctx = unknown> {
  /**
   * Calls the original tool with arguments in the transformed shape (renamed names; hidden
   * values are added), checked against the original schema; resolves to what it returned.
   */
  forward(args?: Record<string, unknown>): Promise<unknown>;
  /** Calls the original tool with arguments under the original names, as they are. */
  forwardRaw(args?: Record<string, unknown>): Promise<unknown>;
  /** The request context (`ctx.log`, `ctx.elicit`, …), as a tool handler receives it. */
  readonly ctx: Ctx;
}

/**
 * How a tool is served differently from how it was declared (see `server.transform`).
 *
 * @example
 * ```ts
 * server.transform('weather_get_forecast', {
 *   name: 'forecast',
 *   description: 'The forecast for a city, in metric units',
 *   args: { units: { hide: true, value: 'metric' } },
 *   wrap: async (args, { forward }) => {
 *     const result = await forward({ ...args, city: String(args.city).trim() });
 *     return { ...(result as object), source: 'weather service' };
 *   },
 * });
 * ```
 */
export interface ToolTransform<Ctx = unknown> {
  /** The name clients call it by. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Per original argument name: rename, redescribe, hide, narrow, default. */
  readonly args?: Readonly<Record<string, ArgTransform>>;
  /**
   * The output schema clients see, when `wrap` changes the result's shape (JSON Schema or a
   * Standard Schema); `false` serves none. Default: the original's.
   */
  readonly output?: unknown;
  /**
   * Runs instead of the original: gets the validated arguments (transformed names) and calls
   * `forward` for the original. What it returns is the tool's result.
   */
  readonly wrap?: (args: Record<string, unknown>, call: ForwardCall<Ctx>) => unknown;
}

const compiler = new ValidatorCompiler();
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const ARG_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The tool `tool` becomes under `spec`: its input schema is what clients see (hidden arguments
 * gone, renamed, narrowed, defaults), calls are checked against it, mapped back to the original
 * names with hidden values added, and checked by the original before its handler runs. Works
 * on any definition — declared, mounted, or one whose handler forwards to another server.
 * Throws a {@link StartupError} naming the tool and the fix for a transform that cannot apply.
 */
export function transformTool(tool: ToolDefinition, spec: ToolTransform): ToolDefinition {
  const where = `server.transform(${JSON.stringify(tool.name)})`;
  if (typeof spec !== 'object' || spec === null)
    throw new StartupError(
      'INVALID_TRANSFORM',
      `${where}: the transform must be an object such as { name: 'new_name' }.`,
    );
  if (spec.name !== undefined && (typeof spec.name !== 'string' || !TOOL_NAME.test(spec.name)))
    throw new StartupError(
      'INVALID_NAME',
      `${where}: invalid new name ${JSON.stringify(spec.name)}. Tool names are 1–128 characters of A-Z, a-z, 0-9, '_', '-' and '.'. Fix: name: 'valid_name'.`,
    );
  if (spec.args !== undefined && (typeof spec.args !== 'object' || spec.args === null))
    throw new StartupError(
      'INVALID_TRANSFORM',
      `${where}: args must be an object keyed by argument name, such as { units: { hide: true, value: 'metric' } }.`,
    );
  const original = tool.inputSchema;
  const properties = (original.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((original.required ?? []) as string[]);
  const args = spec.args ?? {};
  const known = Object.keys(properties);
  const toOriginal = new Map<string, string>();
  const toNew = new Map<string, string>();
  const fixed = new Map<string, unknown>();
  const nextProperties: Record<string, JsonSchema> = {};
  const nextRequired: string[] = [];
  for (const [name, change] of Object.entries(args)) {
    if (!Object.hasOwn(properties, name))
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: the tool has no argument "${name}" (its arguments: ${known.join(', ') || 'none'}). ` +
          'Fix: name one of those in args.',
      );
    if (typeof change !== 'object' || change === null)
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: the transform of argument "${name}" must be an object, got ${JSON.stringify(change)}. ` +
          `Fix: args: { ${name}: { hide: true, value: ${JSON.stringify(change)} } } to fix its value.`,
      );
    if (
      change.name !== undefined &&
      (typeof change.name !== 'string' || !ARG_NAME.test(change.name))
    )
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: argument "${name}" cannot be renamed to ${JSON.stringify(change.name)}. Fix: a name of letters, digits, '_', '-' and '.'.`,
      );
  }
  for (const name of known) {
    const change: ArgTransform = args[name] ?? {};
    if (change.hide) {
      const value = change.value !== undefined ? change.value : change.default;
      if (value !== undefined) fixed.set(name, value);
      else if (required.has(name))
        throw new StartupError(
          'INVALID_TRANSFORM',
          `${where}: argument "${name}" is required, so hiding it needs the value to pass. ` +
            `Fix: args: { ${name}: { hide: true, value: … } }, or leave it visible.`,
        );
      continue;
    }
    if (change.value !== undefined)
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: argument "${name}" has a value but is not hidden. Fix: add hide: true, or give a default instead.`,
      );
    const shown = change.name ?? name;
    if (toOriginal.has(shown))
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: arguments "${toOriginal.get(shown)}" and "${name}" would both be named "${shown}". Fix: rename one of them.`,
      );
    toOriginal.set(shown, name);
    toNew.set(name, shown);
    let schema: JsonSchema = properties[name];
    if (change.type !== undefined) schema = fragment(change.type, where, name);
    if (change.description !== undefined) schema = { ...schema, description: change.description };
    if (change.default !== undefined) schema = { ...schema, default: change.default };
    nextProperties[shown] = schema;
    if (change.required || (required.has(name) && change.default === undefined))
      nextRequired.push(shown);
  }
  const inputSchema: JsonSchema = { ...original, properties: nextProperties };
  delete inputSchema.$id;
  if (nextRequired.length > 0) inputSchema.required = nextRequired;
  else delete inputSchema.required;
  let check: Validator;
  try {
    check = compiler.compile(inputSchema, inputSchema);
  } catch (error) {
    throw new StartupError(
      'INVALID_TRANSFORM',
      `${where}: the transformed input schema does not compile (${(error as Error).message}). Fix: check the args' type schemas.`,
    );
  }
  const mapBack = (value: unknown): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (isPlainObject(value))
      for (const [key, v] of Object.entries(value)) {
        const target = toOriginal.get(key);
        if (target !== undefined) out[target] = v;
        // An original name clients no longer see (renamed or hidden) is not a way around it.
        else if (!Object.hasOwn(properties, key)) out[key] = v;
      }
    for (const [key, v] of fixed) out[key] = structuredClone(v);
    return out;
  };
  const renamed = (issues: readonly ValidationIssue[]) =>
    issues.map((issue) => {
      const [head, ...rest] = issue.path.split('.');
      const shown = toNew.get(head);
      return shown === undefined ? issue : { ...issue, path: [shown, ...rest].join('.') };
    });
  const viaOriginal = (value: Record<string, unknown>) =>
    thenMaybe(
      tool.validateInput(value),
      (result): Validation => (result.ok ? result : { ok: false, issues: renamed(result.issues) }),
    );
  const name = spec.name ?? tool.name;
  const output = outputOf(tool, spec.output, where);
  const wrap = spec.wrap;
  let validateInput: Validator;
  let handler: ToolDefinition['handler'];
  if (wrap === undefined) {
    validateInput = (raw) =>
      thenMaybe(check(raw), (result) => (result.ok ? viaOriginal(mapBack(result.value)) : result));
    handler = tool.handler;
  } else {
    if (typeof wrap !== 'function')
      throw new StartupError(
        'INVALID_TRANSFORM',
        `${where}: wrap must be a function (args, { forward }) => …, got ${typeof wrap}.`,
      );
    validateInput = check;
    const run = async (value: Record<string, unknown>, ctx: unknown) => {
      const checked = await tool.validateInput(value);
      if (!checked.ok) throw new InvalidArgumentsError(tool.name, checked.issues);
      return tool.handler(checked.value, ctx);
    };
    handler = (args, ctx) =>
      wrap(args as Record<string, unknown>, {
        forward: (next) => run(mapBack(next ?? {}), ctx),
        forwardRaw: (next) => run({ ...next }, ctx),
        ctx,
      });
  }
  return Object.freeze({
    ...tool,
    name,
    title: spec.title ?? tool.title,
    description: spec.description ?? tool.description,
    inputSchema: deepFreeze(structuredClone(inputSchema)),
    outputSchema: output.schema,
    validateOutput: output.validate,
    origin: name === tool.name ? tool.origin : `${tool.origin} (as "${name}")`,
    validateInput,
    handler,
  });
}

function fragment(type: unknown, where: string, arg: string): JsonSchema {
  try {
    const schema = { ...toJsonSchema(type, 'input') };
    delete schema.$schema;
    return schema;
  } catch (error) {
    throw new StartupError(
      'INVALID_TRANSFORM',
      `${where}: the type of argument "${arg}" is not a schema (${(error as Error).message}). Fix: give a JSON Schema such as { type: 'string', enum: ['a', 'b'] } or a zod schema.`,
    );
  }
}

function outputOf(
  tool: ToolDefinition,
  output: unknown,
  where: string,
): { schema?: JsonSchema; validate?: Validator } {
  if (output === undefined) return { schema: tool.outputSchema, validate: tool.validateOutput };
  if (output === false) return {};
  try {
    const schema = toJsonSchema(output, 'output');
    if (schema.type !== 'object') throw new Error('an output schema must be of type "object"');
    return {
      schema: deepFreeze(structuredClone(schema)),
      validate: compiler.compile(output, schema),
    };
  } catch (error) {
    throw new StartupError(
      'INVALID_TRANSFORM',
      `${where}: the output schema is not usable (${(error as Error).message}). Fix: give an object schema, or output: false.`,
    );
  }
}
