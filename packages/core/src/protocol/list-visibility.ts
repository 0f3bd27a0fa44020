import type { ServerCore } from './server-core.js';

type Kind = 'tool' | 'prompt' | 'resource' | 'template';

/**
 * The filter a list applies for this caller (`ServerOptions.listed`), or undefined when every
 * member is listed.
 */
export function shownTo<T extends { readonly scopes: readonly string[] }>(
  core: ServerCore,
  auth: unknown,
  kind: Kind,
  nameOf: (item: T) => string,
): ((item: T) => boolean) | undefined {
  const listed = core.listed;
  if (!listed) return undefined;
  return (item) => listed(auth, { kind, name: nameOf(item), scopes: item.scopes });
}
