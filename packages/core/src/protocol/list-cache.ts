import { RawJson } from '../jsonrpc/index.js';
import type { Registry } from '../registry/index.js';
import { decodeCursor, page } from './pagination.js';

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
    shown?: (item: T) => boolean,
  ): RawJson {
    if (shown) {
      // A caller who may not see everything gets a list of its own, built for it and not kept:
      // how many such views exist depends on the callers, so caching them could grow unbounded.
      const all = items();
      const visible = all.filter(shown);
      if (visible.length < all.length) {
        const { items: slice, nextCursor } = page(visible, key.cursor, key.pageSize);
        const projected = slice.map(project);
        return new RawJson(
          JSON.stringify(
            nextCursor ? { [key.list]: projected, nextCursor } : { [key.list]: projected },
          ),
        );
      }
    }
    if (this.#registry !== registry) {
      this.#registry = registry;
      this.#pages.clear();
    }
    // Only a string cursor names a page: anything else is refused before the lookup (String()
    // of a nested array recurses without end, and ["<cursor>"] would read as "<cursor>"), and
    // the first page's key is one no string cursor can take.
    const cursor =
      key.cursor === undefined
        ? ''
        : typeof key.cursor === 'string'
          ? `:${key.cursor}`
          : decodeCursor(key.cursor);
    const id = `${key.list}\0${key.revision}\0${cursor}`;
    let json = this.#pages.get(id);
    if (!json) {
      const { items: slice, nextCursor } = page(items(), key.cursor, key.pageSize);
      const projected = slice.map(project);
      json = new RawJson(
        JSON.stringify(
          nextCursor ? { [key.list]: projected, nextCursor } : { [key.list]: projected },
        ),
      );
      // Only valid cursors reach this point, so the map is bounded by the number of pages.
      this.#pages.set(id, json);
    }
    return json;
  }
}
