import type { McpFwServer } from '@mcp-fw/core';

/**
 * Every scope a server's members declare (`scopes` on `@Tool`, `@Resource`, `@Prompt`, and
 * `@Scopes` class defaults), sorted: what its metadata lists as `scopes_supported`.
 *
 * @example
 * ```ts
 * import { declaredScopes } from '@mcp-fw/auth';
 * import type { McpFwServer } from '@mcp-fw/core';
 * declare const server: McpFwServer;
 * const scopesSupported = declaredScopes(server); // e.g. ['notes:read', 'notes:write']
 * ```
 */
export function declaredScopes(server: McpFwServer): string[] {
  const { tools, prompts, resources, templates } = server.registry;
  const all = new Set<string>();
  for (const member of [...tools, ...prompts, ...resources, ...templates])
    for (const scope of member.scopes) all.add(scope);
  return [...all].sort();
}

/**
 * A `listed` option for `createServer` that hides from a caller's lists the members its token's
 * scopes do not cover (they would answer 403). Requests without an OAuth identity (stdio) see
 * everything.
 *
 * @example
 * ```ts
 * import { createServer } from '@mcp-fw/core';
 * import { listedWithScopes } from '@mcp-fw/auth';
 * class Notes {}
 * const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes], listed: listedWithScopes });
 * ```
 */
export function listedWithScopes(
  auth: unknown,
  member: { readonly scopes: readonly string[] },
): boolean {
  const granted = (auth as { scopes?: unknown } | undefined)?.scopes;
  if (!Array.isArray(granted)) return true;
  return member.scopes.every((scope) => granted.includes(scope));
}
