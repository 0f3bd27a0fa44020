import { namespaced } from '@mcp-fw/core';

/** The separator between a namespace and a member's own name (default `_`, as `server.mount`'s). */
export const DEFAULT_SEPARATOR = '_';

/**
 * The name an upstream member is served under: core's one rule for mounted members
 * (`namespaced`, so `weather_get_forecast` reads the same whether mounted or proxied), or its own
 * name when the upstream has no namespace.
 */
export function memberName(namespace: string | undefined, name: string, separator: string): string {
  return namespace ? namespaced(name, namespace, separator) : name;
}
