import { LATEST_LEGACY, type Engine, type ListName } from '@mcp-fw/core/transport';

/** Everything a server lists, exactly as a client receives it (all pages joined). */
export interface ServerLists {
  readonly tools: readonly Record<string, any>[];
  readonly prompts: readonly Record<string, any>[];
  readonly resources: readonly Record<string, any>[];
  readonly resourceTemplates: readonly Record<string, any>[];
}

/** Runs the `initialize` handshake as a client with `capabilities` (none by default); returns the result. */
export async function handshake(
  peer: Engine,
  capabilities: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const result = await peer.request('initialize', {
    protocolVersion: LATEST_LEGACY,
    capabilities,
    clientInfo: { name: 'mcp-fw', version: '0.1.0' },
  });
  peer.notify('notifications/initialized');
  return result as Record<string, any>;
}

/**
 * Fetches every list over an initialized connection, following `nextCursor`. mcp-fw servers
 * answer every list method, advertised or not, so an empty list needs no capability check.
 */
export async function fetchLists(peer: Engine): Promise<ServerLists> {
  const all = async (method: string, key: string) => {
    const items: Record<string, any>[] = [];
    let cursor: string | undefined;
    do {
      const page = (await peer.request(method, cursor === undefined ? {} : { cursor })) as Record<
        string,
        any
      >;
      items.push(...(page[key] as Record<string, any>[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return items;
  };
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    all('tools/list', 'tools'),
    all('prompts/list', 'prompts'),
    all('resources/list', 'resources'),
    all('resources/templates/list', 'resourceTemplates'),
  ]);
  return { tools, prompts, resources, resourceTemplates };
}

/** The lists whose content differs between two snapshots (resources covers the templates). */
export function changedLists(before: ServerLists, after: ServerLists): ListName[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const changed: ListName[] = [];
  if (!same(before.tools, after.tools)) changed.push('tools');
  if (!same(before.prompts, after.prompts)) changed.push('prompts');
  if (
    !same(before.resources, after.resources) ||
    !same(before.resourceTemplates, after.resourceTemplates)
  )
    changed.push('resources');
  return changed;
}

/** Nothing listed: what a server that never started offers. */
export const EMPTY_LISTS: ServerLists = Object.freeze({
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
});
