import type { McpServer } from '@mcp-fw/core';

/**
 * Every scope a server's members declare (`scopes` on `@Tool`, `@Resource`, `@Prompt`, and
 * `@Scopes` class defaults), sorted: what its metadata lists as `scopes_supported`.
 *
 * @example
 * ```ts
 * import { declaredScopes } from '@mcp-fw/auth';
 * import type { McpServer } from '@mcp-fw/core';
 * declare const server: McpServer;
 * const scopesSupported = declaredScopes(server); // e.g. ['notes:read', 'notes:write']
 * ```
 */
export function declaredScopes(server: McpServer): string[] {
  const { tools, prompts, resources, templates } = server.registry;
  const all = new Set<string>();
  for (const member of [...tools, ...prompts, ...resources, ...templates]) for (const scope of member.scopes) all.add(scope);
  return [...all].sort();
}
