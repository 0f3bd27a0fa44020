import type { Registry } from '../registry/index.js';

/** Server capabilities derived from what is registered: nothing is advertised that is not served. */
export function serverCapabilities(registry: Registry): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (registry.tools.length > 0) capabilities.tools = { listChanged: false };
  return capabilities;
}
