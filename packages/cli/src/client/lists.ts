import { LATEST_LEGACY, type Engine, type ListName } from '@mcp-fw/core/transport';
import type {
  InitializeResult,
  ListedPrompt,
  ListedResource,
  ListedTemplate,
  ListedTool,
} from './wire.js';

/** Everything a server lists, exactly as a client receives it (all pages joined). */
export interface ServerLists {
  readonly tools: readonly ListedTool[];
  readonly prompts: readonly ListedPrompt[];
  readonly resources: readonly ListedResource[];
  readonly resourceTemplates: readonly ListedTemplate[];
}

/** Runs the `initialize` handshake as a client with `capabilities` (none by default); returns the result. */
export async function handshake(
  peer: Engine,
  capabilities: Record<string, unknown> = {},
): Promise<InitializeResult> {
  const result = await peer.request('initialize', {
    protocolVersion: LATEST_LEGACY,
    capabilities,
    clientInfo: { name: 'mcp-fw', version: '0.1.0' },
  });
  peer.notify('notifications/initialized');
  return result as InitializeResult;
}

/**
 * Fetches every list over an initialized connection, following `nextCursor`. mcp-fw servers
 * answer every list method, advertised or not, so an empty list needs no capability check.
 */
export async function fetchLists(peer: Engine): Promise<ServerLists> {
  const all = async <T>(method: string, key: string): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = (await peer.request(method, cursor === undefined ? {} : { cursor })) as {
        readonly [member: string]: unknown;
        readonly nextCursor?: string;
      };
      items.push(...(page[key] as T[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return items;
  };
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    all<ListedTool>('tools/list', 'tools'),
    all<ListedPrompt>('prompts/list', 'prompts'),
    all<ListedResource>('resources/list', 'resources'),
    all<ListedTemplate>('resources/templates/list', 'resourceTemplates'),
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
