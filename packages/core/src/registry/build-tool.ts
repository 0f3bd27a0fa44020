import type { ToolOptions } from '../decorators/index.js';
import { toJsonSchema } from '../schema/index.js';
import { memberLimits } from './member-limits.js';
import { memberScopes } from './member-scopes.js';
import { objectSchema, methodInput } from './member-input.js';
import { deepFreeze, makeHandler, memberMethod, memberName, type MemberSource } from './member-method.js';
import { schemaOrStartupError } from './schema-source.js';
import type { ToolDefinition } from './tool-definition.js';

export function buildTool(source: MemberSource): ToolDefinition {
  const options = source.record.options as ToolOptions;
  const method = memberMethod(source, '@Tool');
  const { origin } = method;
  const name = memberName(options, source, origin, 'tool');
  const input = methodInput(source, method, options);
  let outputSchema;
  let validateOutput;
  if (options.output !== undefined) {
    const json = schemaOrStartupError(() => toJsonSchema(options.output, 'output'), origin, 'output');
    const schema = objectSchema(json, origin, 'output');
    outputSchema = schema;
    validateOutput = schemaOrStartupError(() => source.compiler.compile(options.output, schema), origin, 'output');
  }
  return Object.freeze({
    name,
    title: options.title,
    description: options.description,
    inputSchema: deepFreeze(structuredClone(input.schema)),
    outputSchema: outputSchema && deepFreeze(structuredClone(outputSchema)),
    annotations: options.annotations,
    icons: options.icons,
    _meta: options._meta,
    origin,
    validateInput: input.validate,
    validateOutput,
    limits: memberLimits(options, origin),
    scopes: memberScopes(options.scopes, source, origin),
    handler: makeHandler(method, source.receiver, input.positional),
  });
}
