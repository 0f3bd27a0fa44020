// JSDoc that says nothing to the schema (issue 29): typos, leftover @param lines, and integers
// said with plain types.
import { Tool, type Integer } from '@mcp-fw/core';

interface Page {
  /**
   * Which page.
   * @minimun 1
   */
  number: Integer;
  /** @maximum 100 */
  size?: Integer;
}

export class Docs {
  /**
   * Take copies of a book.
   * @param isbn The book
   * @param amount How many (renamed to count since)
   * @maximun 5
   */
  @Tool()
  take(isbn: string, count: Integer, shelves: Integer[], page?: Page): string {
    return `${count} × ${isbn} on ${shelves.length} shelves, page ${page?.number ?? 1}`;
  }

  /**
   * Fine as it is.
   * @param query What to look for
   * @see https://example.com/search
   * @deprecated Use take
   */
  @Tool()
  search(query: string, limit?: number): Integer {
    return query.length + (limit ?? 0);
  }
}
