import type {
  PromptDefinition,
  ResourceDefinition,
  TemplateDefinition,
  ToolDefinition,
} from '../registry/index.js';
import type { ResourceEntry } from '../registry/index.js';
import type { RevisionFeatures } from './eras/revisions.js';

// The wire shape of each member for one revision: fields the revision does not know are left
// out, so every list result validates against that revision's schema.

export function toolForRevision(
  tool: ToolDefinition,
  f: RevisionFeatures,
): Record<string, unknown> {
  const wire: Record<string, unknown> = { name: tool.name };
  if (f.structured && tool.title !== undefined) wire.title = tool.title;
  if (tool.description !== undefined) wire.description = tool.description;
  wire.inputSchema = tool.inputSchema;
  if (f.structured && tool.outputSchema) wire.outputSchema = tool.outputSchema;
  if (f.toolAnnotations && tool.annotations) wire.annotations = tool.annotations;
  if (f.icons && tool.icons) wire.icons = tool.icons;
  if (f.structured && tool._meta) wire._meta = tool._meta;
  if (f.coreTasks && tool.task.mode !== 'forbidden')
    wire.execution = { taskSupport: tool.task.mode };
  return wire;
}

type ResourceLike = ResourceEntry | ResourceDefinition | (TemplateDefinition & { uri?: undefined });

export function resourceForRevision(
  resource: ResourceLike,
  f: RevisionFeatures,
): Record<string, unknown> {
  const wire: Record<string, unknown> =
    'uriTemplate' in resource
      ? { uriTemplate: resource.uriTemplate, name: resource.name }
      : { uri: resource.uri, name: resource.name };
  if (f.structured && resource.title !== undefined) wire.title = resource.title;
  if (resource.description !== undefined) wire.description = resource.description;
  if (resource.mimeType !== undefined) wire.mimeType = resource.mimeType;
  if ('size' in resource && resource.size !== undefined) wire.size = resource.size;
  if (resource.annotations) {
    const { lastModified, ...rest } = resource.annotations;
    wire.annotations =
      f.structured && lastModified !== undefined ? { ...rest, lastModified } : rest;
  }
  if (f.icons && resource.icons) wire.icons = resource.icons;
  if (f.structured && resource._meta) wire._meta = resource._meta;
  return wire;
}

export function promptForRevision(
  prompt: PromptDefinition,
  f: RevisionFeatures,
): Record<string, unknown> {
  const wire: Record<string, unknown> = { name: prompt.name };
  if (f.structured && prompt.title !== undefined) wire.title = prompt.title;
  if (prompt.description !== undefined) wire.description = prompt.description;
  if (prompt.arguments.length) wire.arguments = prompt.arguments;
  if (f.icons && prompt.icons) wire.icons = prompt.icons;
  if (f.structured && prompt._meta) wire._meta = prompt._meta;
  return wire;
}
