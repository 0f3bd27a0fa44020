import { RawJson } from '../jsonrpc/index.js';
import type { Registry } from '../registry/index.js';
import { page } from './pagination.js';

/**
 * List results serialised once per registry version, revision and cursor: a page is the same
 * bytes for every client of that revision, so it is built once and spliced into responses.
 */
export class ListCache {
  #registry?: Registry;
  readonly #pages = new Map<string, RawJson>();

  get<T>(
    registry: Registry,
    key: { list: string; revision: string; cursor: unknown; pageSize: number },
    items: () => readonly T[],
    project: (item: T) => unknown,
  ): RawJson {
    if (this.#registry !== registry) {
      this.#registry = registry;
      this.#pages.clear();
    }
    const id = `${key.list}\0${key.revision}\0${String(key.cursor)}`;
    let json = this.#pages.get(id);
    if (!json) {
      const { items: slice, nextCursor } = page(items(), key.cursor, key.pageSize);
      const projected = slice.map(project);
      json = new RawJson(JSON.stringify(nextCursor ? { [key.list]: projected, nextCursor } : { [key.list]: projected }));
      // Only valid cursors reach this point, so the map is bounded by the number of pages.
      this.#pages.set(id, json);
    }
    return json;
  }
}
