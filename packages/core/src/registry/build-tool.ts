import type { ToolOptions } from '../decorators/index.js';
import { toJsonSchema, type Validator } from '../schema/index.js';
import { memberLimits } from './member-limits.js';
import { memberMiddleware } from './member-middleware.js';
import { memberScopes } from './member-scopes.js';
import { memberTask } from './member-task.js';
import { objectSchema, methodInput } from './member-input.js';
import {
  deepFreeze,
  makeHandler,
  memberMethod,
  memberName,
  type MemberSource,
} from './member-method.js';
import { schemaOrStartupError } from './schema-source.js';
import type { ToolDefinition } from './tool-definition.js';
import { versionedMeta } from './tool-versions.js';
import { toolUiMeta } from './views.js';

export function buildTool(source: MemberSource): ToolDefinition {
  const options = source.record.options as ToolOptions;
  const method = memberMethod(source, '@Tool');
  const { origin } = method;
  const name = memberName(options, source, origin, 'tool');
  const input = methodInput(source, method, options);
  let outputSchema;
  let validateOutput;
  const output = options.output ?? source.derived?.output;
  if (output !== undefined) {
    const json = schemaOrStartupError(() => toJsonSchema(output, 'output'), origin, 'output');
    const schema = objectSchema(json, origin, 'output');
    outputSchema = schema;
    validateOutput = schemaOrStartupError(
      () => source.compiler.compile(output, schema),
      origin,
      'output',
    );
    // A derived output schema may describe Dates as date-time strings: check what JSON will carry.
    if (options.output === undefined && JSON.stringify(schema).includes('"date-time"'))
      validateOutput = asJson(validateOutput);
  }
  const versioned = versionedMeta(
    options,
    options.ui === undefined ? options._meta : toolUiMeta(options.ui, options._meta, origin),
    options.description ?? source.derived?.description,
    origin,
  );
  return Object.freeze({
    name,
    title: options.title,
    description: versioned.description,
    inputSchema: deepFreeze(structuredClone(input.schema)),
    outputSchema: outputSchema && deepFreeze(structuredClone(outputSchema)),
    annotations: options.annotations,
    icons: options.icons,
    _meta: versioned._meta,
    origin,
    validateInput: input.validate,
    validateOutput,
    limits: memberLimits(options, origin),
    scopes: memberScopes(options.scopes, source, origin),
    task: memberTask(options.task, origin),
    middleware: memberMiddleware(source),
    handler: makeHandler(method, source.receiver, input.positional),
  });
}

function asJson(validate: Validator): Validator {
  return (value) => validate(JSON.parse(JSON.stringify(value)));
}
