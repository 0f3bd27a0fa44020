import type { Completer } from '../decorators/index.js';
import type { ResourceContents } from './content.js';
import { InvalidArgumentsError, ResourceNotFoundError } from './errors.js';
import { normalisePrompt, type GetPromptResult } from './normalise-prompt.js';
import { normaliseResource } from './normalise-resource.js';
import type { PromptDefinition } from './prompt-definition.js';
import type { Registry } from './registry.js';

/**
 * Reads a resource: a static one by exact URI, else the first matching template, whose decoded
 * variables are validated like tool arguments before the handler sees them.
 */
export async function readResource(registry: Registry, uri: string, ctx: unknown): Promise<ResourceContents[]> {
  const resource = registry.resource(uri);
  if (resource) return normaliseResource(await resource.handler({}, ctx), uri, resource.mimeType);
  const match = registry.matchTemplate(uri);
  if (!match) throw new ResourceNotFoundError(uri);
  const { template, variables } = match;
  const checked = await template.validateVariables(variables);
  if (!checked.ok) throw new InvalidArgumentsError(template.uriTemplate, checked.issues, 'resource');
  const value = await template.handler(checked.value, ctx);
  if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
  const contents = normaliseResource(value, uri, template.mimeType);
  if (contents.length === 0) throw new ResourceNotFoundError(uri);
  return contents;
}

/** Renders a prompt; a missing or invalid argument is an {@link InvalidArgumentsError} naming it. */
export async function getPrompt(prompt: PromptDefinition, rawArgs: unknown, ctx: unknown): Promise<GetPromptResult> {
  const checked = await prompt.validateArguments(rawArgs ?? {});
  if (!checked.ok) throw new InvalidArgumentsError(prompt.name, checked.issues, 'prompt');
  return normalisePrompt(await prompt.handler(checked.value, ctx), prompt.description);
}

const MAX_COMPLETIONS = 100;

/** Completion values for one argument (the spec caps a response at 100 values). */
export async function complete(
  completer: Completer | undefined,
  value: string,
  args: Record<string, string>,
): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
  if (!completer) return { values: [] };
  const all =
    typeof completer === 'function'
      ? [...(await completer(value, { arguments: args }))]
      : completer.filter((c) => c.toLowerCase().startsWith(value.toLowerCase()));
  const values = all.slice(0, MAX_COMPLETIONS).map(String);
  return all.length > MAX_COMPLETIONS ? { values, total: all.length, hasMore: true } : { values, total: all.length, hasMore: false };
}
