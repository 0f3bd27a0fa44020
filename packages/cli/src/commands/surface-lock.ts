import { surfaceFingerprint, type McpFwServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';

/** The protocol revisions a surface lock records, oldest first. */
export const SURFACE_ERAS = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2026-07-28',
] as const;

type Schema = Record<string, unknown>;

/** What one revision's clients see: members by name (resources by URI), with their schemas. */
export interface EraSurface {
  tools: Record<string, { description?: string; inputSchema: Schema; outputSchema?: Schema }>;
  prompts: Record<
    string,
    { description?: string; arguments: { name: string; required?: boolean }[] }
  >;
  resources: Record<string, { mimeType?: string }>;
  resourceTemplates: Record<string, { mimeType?: string }>;
}

/** The content of `mcp-surface.lock.json`. */
export interface SurfaceLock {
  lockVersion: 1;
  server: { name: string; version: string };
  /** `surfaceFingerprint` of the server: the same the HTTP Server Card serves in `_meta`. */
  fingerprint?: string;
  eras: Record<string, EraSurface>;
}

async function all(
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>,
  method: string,
  key: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await request(method, cursor === undefined ? {} : { cursor });
    items.push(...((page[key] ?? []) as Record<string, unknown>[]));
    cursor = page.nextCursor as string | undefined;
  } while (cursor !== undefined);
  return items;
}

const sorted = <T>(entries: [string, T][]): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Lists `server` as a client of each revision sees it. */
export async function snapshotSurface(server: McpFwServer): Promise<SurfaceLock> {
  const eras: Record<string, EraSurface> = {};
  let info = { name: '', version: '' };
  for (const era of SURFACE_ERAS) {
    const client = await connectTestClient(server, { protocolVersion: era });
    try {
      const request = (m: string, p?: Record<string, unknown>) =>
        client.request<Record<string, unknown>>(m, p);
      const [tools, prompts, resources, templates] = await Promise.all([
        all(request, 'tools/list', 'tools'),
        all(request, 'prompts/list', 'prompts'),
        all(request, 'resources/list', 'resources'),
        all(request, 'resources/templates/list', 'resourceTemplates'),
      ]);
      const described = client.initializeResult.serverInfo as
        | { name: string; version: string }
        | undefined;
      if (described) info = { name: described.name, version: described.version };
      eras[era] = {
        tools: sorted(
          tools.map((t) => [
            t.name as string,
            {
              description: t.description as string | undefined,
              inputSchema: t.inputSchema as Schema,
              ...(t.outputSchema ? { outputSchema: t.outputSchema as Schema } : {}),
            },
          ]),
        ),
        prompts: sorted(
          prompts.map((p) => [
            p.name as string,
            {
              description: p.description as string | undefined,
              arguments: ((p.arguments ?? []) as { name: string; required?: boolean }[]).map(
                ({ name, required }) => ({ name, required: required === true }),
              ),
            },
          ]),
        ),
        resources: sorted(
          resources.map((r) => [r.uri as string, { mimeType: r.mimeType as string | undefined }]),
        ),
        resourceTemplates: sorted(
          templates.map((r) => [
            r.uriTemplate as string,
            { mimeType: r.mimeType as string | undefined },
          ]),
        ),
      };
    } finally {
      await client.close();
    }
  }
  return {
    lockVersion: 1,
    server: info,
    fingerprint: await surfaceFingerprint(server.registry),
    eras,
  };
}
