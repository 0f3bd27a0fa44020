import type { PromptOptions } from '../decorators/index.js';
import { memberLimits } from './member-limits.js';
import { memberMiddleware } from './member-middleware.js';
import { memberScopes } from './member-scopes.js';
import { methodInput } from './member-input.js';
import { makeHandler, memberMethod, memberName, type MemberSource } from './member-method.js';
import type { PromptArgument, PromptDefinition } from './prompt-definition.js';

export function buildPrompt(source: MemberSource): PromptDefinition {
  const options = source.record.options as PromptOptions;
  const method = memberMethod(source, '@Prompt');
  const { origin } = method;
  const name = memberName(options, source, origin, 'prompt');
  const input = methodInput(source, method, options);
  const properties = (input.schema.properties ?? {}) as Record<string, { description?: unknown }>;
  const required = new Set((input.schema.required as string[] | undefined) ?? []);
  const args: PromptArgument[] = Object.entries(properties).map(([argName, property]) => {
    const arg: { name: string; description?: string; required: boolean } = {
      name: argName,
      required: required.has(argName),
    };
    if (typeof property.description === 'string') arg.description = property.description;
    return Object.freeze(arg);
  });
  return Object.freeze({
    name,
    title: options.title,
    description: options.description ?? source.derived?.description,
    icons: options.icons,
    _meta: options._meta,
    arguments: Object.freeze(args),
    origin,
    validateArguments: input.validate,
    completers: input.completers,
    limits: memberLimits(options, origin),
    scopes: memberScopes(options.scopes, source, origin),
    middleware: memberMiddleware(source),
    handler: makeHandler(method, source.receiver, input.positional),
  });
}
