import { UI_EXTENSION, type Registry } from '../registry/index.js';
import { featuresOf } from './eras/revisions.js';

/**
 * Server capabilities. Capabilities are negotiated once, when a client connects (initialize, or
 * server/discover whose result clients cache), but every mcp-fw server can gain tools, prompts
 * and resources afterwards (`server.add`, `mount`, a proxy whose upstream answers later). A
 * capability declared only once its first member exists would never reach a client connected
 * before it: a 2026-07-28 `subscriptions/listen` would refuse its list changes, and a legacy
 * session would get `list_changed` for a capability it was never told of. So the three lists are
 * always declared, each with `listChanged` (an empty list is a valid answer); what depends on a
 * member's own feature (completion, MCP Apps views) is declared when some member has it.
 */
export function serverCapabilities(registry: Registry, revision: string): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {
    logging: {},
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
  };
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
