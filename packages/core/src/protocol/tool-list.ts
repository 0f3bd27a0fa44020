import { RawJson } from '../jsonrpc/index.js';
import type { Registry, ToolDefinition } from '../registry/index.js';
import { page } from './pagination.js';
import { featuresOf, type RevisionFeatures } from './revisions.js';

/** The wire shape of a tool for one revision: fields the revision does not know are left out. */
export function toolForRevision(tool: ToolDefinition, f: RevisionFeatures): Record<string, unknown> {
  const wire: Record<string, unknown> = { name: tool.name };
  if (f.structured && tool.title !== undefined) wire.title = tool.title;
  if (tool.description !== undefined) wire.description = tool.description;
  wire.inputSchema = tool.inputSchema;
  if (f.structured && tool.outputSchema) wire.outputSchema = tool.outputSchema;
  if (f.toolAnnotations && tool.annotations) wire.annotations = tool.annotations;
  if (f.icons && tool.icons) wire.icons = tool.icons;
  if (f.structured && tool._meta) wire._meta = tool._meta;
  return wire;
}

/**
 * tools/list pages, serialised once per registry version, revision and cursor: a list result
 * is the same bytes for every client of that revision, so it is built once and spliced in.
 */
export class ToolListCache {
  #registry?: Registry;
  readonly #pages = new Map<string, RawJson>();

  get(registry: Registry, revision: string, cursor: unknown, pageSize: number): RawJson {
    if (this.#registry !== registry) {
      this.#registry = registry;
      this.#pages.clear();
    }
    const key = `${revision}\0${String(cursor)}`;
    let json = this.#pages.get(key);
    if (!json) {
      const features = featuresOf(revision);
      const { items, nextCursor } = page(registry.tools, cursor, pageSize);
      const tools = items.map((t) => toolForRevision(t, features));
      json = new RawJson(JSON.stringify(nextCursor ? { tools, nextCursor } : { tools }));
      // Only valid cursors reach this point, so the map is bounded by the number of pages.
      this.#pages.set(key, json);
    }
    return json;
  }
}
