import type { Book } from './catalog.js';

/** Who reserved what, for how long. Kept in memory: it lasts as long as the server process. */
export class Reservations {
  readonly #weeks = new Map<string, number>();

  /** Reserves `book` for `weeks` weeks; false when it is already reserved. */
  async reserve(book: Book, weeks: number): Promise<boolean> {
    // A real library would call its loan system here; the await keeps the shape of that call.
    await Promise.resolve();
    if (this.#weeks.has(book.id)) return false;
    this.#weeks.set(book.id, weeks);
    return true;
  }

  /** The reserved book ids, in the order they were reserved. */
  list(): string[] {
    return [...this.#weeks.keys()];
  }
}
