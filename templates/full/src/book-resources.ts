import { Resource, ResourceNotFoundError } from '@mcp-fw/core';
import { BOOKS, findBook } from './catalog.js';

/**
 * Every book as a resource, through one URI template (RFC 6570): `books://dune`,
 * `books://earthsea`, … The client lists them, reads them, and completes the `{id}` variable
 * as the user types.
 */
export class BookResources {
  @Resource('books://{id}', {
    name: 'book',
    title: 'Book',
    description: 'One book of the catalog, as JSON',
    mimeType: 'application/json',
    list: () =>
      BOOKS.map((book) => ({
        uri: `books://${book.id}`,
        name: book.title,
        mimeType: 'application/json',
      })),
    complete: { id: BOOKS.map((book) => book.id) },
  })
  book({ id }: { id: string }): string {
    const book = findBook(id);
    if (!book) throw new ResourceNotFoundError(`books://${id}`, 'no book has this id');
    return JSON.stringify(book);
  }
}
