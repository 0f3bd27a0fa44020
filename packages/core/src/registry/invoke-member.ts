import type { Completer } from '../decorators/index.js';
import type { ResourceContents } from './content.js';
import {
  InvalidArgumentsError,
  ResourceNotFoundError,
  UnserialisableResultError,
  ViewDocumentError,
} from './errors.js';
import { normalisePrompt, type GetPromptResult } from './normalise-prompt.js';
import { normaliseResource } from './normalise-resource.js';
import type { PromptDefinition } from './prompt-definition.js';
import type { Registry } from './registry.js';
import type { ResourceDefinition, TemplateDefinition } from './resource-definition.js';
import { VIEW_MIME_TYPE, viewProblem, type ViewSpec } from './views.js';

/** What serves one URI: a static resource, or a template with the variables it matched. */
export type ResourceMatch =
  | { readonly member: ResourceDefinition; readonly variables?: undefined }
  | { readonly member: TemplateDefinition; readonly variables: Record<string, unknown> };

/** The static resource with this exact URI, else the first matching template. */
export function findResource(registry: Registry, uri: string): ResourceMatch | undefined {
  const resource = registry.resource(uri);
  if (resource) return { member: resource };
  const match = registry.matchTemplate(uri);
  return match && { member: match.template, variables: match.variables };
}

/**
 * Reads a resource: a static one by exact URI, else the first matching template, whose decoded
 * variables are validated like tool arguments before the handler sees them.
 */
export function readResource(
  registry: Registry,
  uri: string,
  ctx: unknown,
): Promise<ResourceContents[]> {
  return readMatch(findResource(registry, uri), uri, ctx);
}

/** Reads what {@link findResource} found for `uri` (not found when it found nothing). */
export async function readMatch(
  found: ResourceMatch | undefined,
  uri: string,
  ctx: unknown,
): Promise<ResourceContents[]> {
  if (!found) throw new ResourceNotFoundError(uri);
  if (found.variables === undefined) {
    const resource = found.member as ResourceDefinition;
    const value = await resource.handler({}, ctx);
    if (resource.view) return viewContents(value, uri, resource.view, resource.origin);
    return contentsOf(value, uri, resource.mimeType);
  }
  const template = found.member as TemplateDefinition;
  const checked = await template.validateVariables(found.variables);
  if (!checked.ok)
    throw new InvalidArgumentsError(template.uriTemplate, checked.issues, 'resource');
  const value = await template.handler(checked.value, ctx);
  if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
  const contents = contentsOf(value, uri, template.mimeType);
  if (contents.length === 0) throw new ResourceNotFoundError(uri);
  return contents;
}

// A view's read carries the document with `_meta.ui` (hosts build the CSP from the read), and
// a document a host could not render is the server's fault, not the client's.
function viewContents(
  value: unknown,
  uri: string,
  view: ViewSpec,
  origin: string,
): ResourceContents[] {
  const problem = viewProblem(value, uri, view.maxBytes);
  if (problem) throw new ViewDocumentError(`${origin}: ${problem}`);
  return [{ uri, mimeType: VIEW_MIME_TYPE, text: value as string, _meta: { ui: view.meta } }];
}

function contentsOf(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  try {
    return normaliseResource(value, uri, mimeType);
  } catch (error) {
    // Only JSON.stringify throws in there: a BigInt or a cycle in what the handler returned.
    throw new UnserialisableResultError('resource', uri, value, error);
  }
}

/** Renders a prompt; a missing or invalid argument is an {@link InvalidArgumentsError} naming it. */
export async function getPrompt(
  prompt: PromptDefinition,
  rawArgs: unknown,
  ctx: unknown,
): Promise<GetPromptResult> {
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
  return all.length > MAX_COMPLETIONS
    ? { values, total: all.length, hasMore: true }
    : { values, total: all.length, hasMore: false };
}
