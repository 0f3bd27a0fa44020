import type { ArgRecord, MemberRecord, ToolOptions } from '../decorators/index.js';
import { toJsonSchema, type ValidatorCompiler } from '../schema/index.js';
import { StartupError } from './errors.js';
import { schemaOrStartupError } from './schema-source.js';
import type { ToolDefinition } from './tool-definition.js';
import { objectSchema, resolveToolInput } from './tool-input.js';

// The spec's tool-name rule (2025-11-25 "Tool names"): 1–128 characters of A-Z a-z 0-9 _ - .
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface ToolSource {
  readonly className: string;
  /** The object the method is called on: the instance, or the class for static methods. */
  readonly receiver: object;
  readonly record: MemberRecord<unknown>;
  readonly args: readonly ArgRecord[];
  readonly compiler: ValidatorCompiler;
}

export function buildTool(source: ToolSource): ToolDefinition {
  const { className, receiver, record, compiler } = source;
  const options = record.options as ToolOptions;
  const origin = `${className}.${String(record.key)}`;
  const method = (receiver as Record<string | symbol, unknown>)[record.key];
  if (typeof method !== 'function') {
    throw new StartupError('INVALID_PROVIDER', `${origin} is decorated with @Tool but is not a method.`);
  }
  const name = options.name ?? (typeof record.key === 'string' ? record.key : undefined);
  if (name === undefined || !TOOL_NAME.test(name)) {
    throw new StartupError(
      'INVALID_NAME',
      `${origin}: invalid tool name ${JSON.stringify(name ?? String(record.key))}. Tool names are 1–128 ` +
        "characters of A-Z, a-z, 0-9, '_', '-' and '.'. Fix: @Tool({ name: 'valid_name' }).",
    );
  }
  const paramTypes = (Reflect.getMetadata('design:paramtypes', receiver, record.key) as unknown[]) ?? [];
  const input = resolveToolInput({
    origin,
    input: options.input,
    args: source.args,
    arity: (method as Function).length,
    paramTypes,
    compiler,
  });
  let outputSchema;
  let validateOutput;
  if (options.output !== undefined) {
    const json = schemaOrStartupError(() => toJsonSchema(options.output, 'output'), origin, 'output');
    outputSchema = objectSchema(json, origin, 'output');
    validateOutput = compiler.compile(options.output, outputSchema);
  }
  const fn = method as (...args: unknown[]) => unknown;
  const positional = input.positional;
  const handler = positional
    ? (args: unknown, ctx: unknown) => {
        const values = args as Record<string, unknown>;
        const params = positional.map((n) => values[n]);
        params.push(ctx);
        return fn.apply(receiver, params);
      }
    : (args: unknown, ctx: unknown) => fn.call(receiver, args, ctx);
  return Object.freeze({
    name,
    title: options.title,
    description: options.description,
    inputSchema: deepFreeze(input.schema),
    outputSchema: outputSchema && deepFreeze(outputSchema),
    annotations: options.annotations,
    icons: options.icons,
    _meta: options._meta,
    origin,
    validateInput: input.validate,
    validateOutput,
    handler,
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
