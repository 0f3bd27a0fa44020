import { UI_EXTENSION, type Registry } from '../registry/index.js';
import { featuresOf } from './eras/revisions.js';

/**
 * Server capabilities derived from what is registered: nothing is advertised that is not
 * served. Lists can change at runtime, so each advertises `listChanged`.
 */
export function serverCapabilities(
  registry: Registry,
  revision: string,
  skills = false,
): Record<string, unknown> {
  const capabilities: Record<string, unknown> = { logging: {} };
  if (registry.tools.length > 0) capabilities.tools = { listChanged: true };
  // Skill files are resources: a server with skills declares them even while it has none.
  if (registry.resources.length > 0 || registry.templates.length > 0 || skills) {
    capabilities.resources = { subscribe: true, listChanged: true };
  }
  if (registry.prompts.length > 0) capabilities.prompts = { listChanged: true };
  const completes =
    registry.prompts.some((p) => p.completers.size > 0) ||
    registry.templates.some((t) => t.completers.size > 0);
  if (completes && featuresOf(revision).completions) capabilities.completions = {};
  const extensions = serverExtensions(registry);
  if (extensions) capabilities.extensions = extensions;
  return capabilities;
}

/**
 * `capabilities.extensions` in every era: MCP Apps when some view is served. (2025-11-25's
 * schema has no `extensions` field but leaves ServerCapabilities open; hosts read it there too.)
 */
function serverExtensions(registry: Registry): Record<string, unknown> | undefined {
  if (!registry.resources.some((r) => r.view)) return undefined;
  return { [UI_EXTENSION]: {} };
}
