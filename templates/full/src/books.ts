import { Tool, UserError, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { BOOKS, findBook, GENRES, type Book } from './catalog.js';
import type { Reservations } from './reservations.js';

const SearchInput = z.object({
  query: z.string().describe('Words to find in the title or the author, e.g. "le guin"'),
  genre: z.enum(GENRES).optional().describe('Only books of this genre'),
  limit: z.number().int().min(1).max(20).default(5).describe('At most this many books'),
});

const BookSummary = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  year: z.number().int(),
});

const SearchOutput = z.object({
  books: z.array(BookSummary).describe('The matching books, oldest first'),
  total: z.number().int().describe('How many books match, before the limit'),
});

const ReserveInput = z.object({
  ids: z.array(z.string()).min(1).describe('The ids of the books to reserve, e.g. ["dune"]'),
});

/** The form the user fills in before anything is reserved (elicitation). */
const Confirmation = z.object({
  confirm: z.boolean().describe('Reserve these books?'),
  weeks: z.number().int().min(1).max(4).describe('For how many weeks (1 to 4)'),
});

/**
 * The catalog's tools: a search with structured output (validated against its zod schema and
 * sent as `structuredContent`), and a reservation that asks the user to confirm (elicitation)
 * and reports its progress.
 */
export class Books {
  constructor(private readonly reservations: Reservations) {}

  @Tool({
    title: 'Search books',
    description: 'Finds books of the catalog by title or author',
    input: SearchInput,
    output: SearchOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  search_books({ query, genre, limit }: z.infer<typeof SearchInput>): z.infer<typeof SearchOutput> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = BOOKS.filter(
      (book) =>
        (genre === undefined || book.genre === genre) &&
        words.every((word) => `${book.title} ${book.author}`.toLowerCase().includes(word)),
    ).sort((a, b) => a.year - b.year);
    const books = matches
      .slice(0, limit)
      .map(({ id, title, author, year }) => ({ id, title, author, year }));
    return { books, total: matches.length };
  }

  @Tool({
    title: 'Reserve books',
    description: 'Reserves books of the catalog, after the user confirms and picks the loan period',
    input: ReserveInput,
  })
  async reserve_books({ ids }: z.infer<typeof ReserveInput>, ctx: Context): Promise<string> {
    const books = ids.map((id) => findBook(id) ?? unknownBook(id));
    const titles = books.map((book) => book.title).join(', ');
    const answer = await ctx.elicit(`Reserve ${titles}?`, Confirmation);
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Nothing was reserved.';
    const { weeks } = answer.content;
    const reserved: Book[] = [];
    for (const [done, book] of books.entries()) {
      // Reported as each step starts: the client shows which book is being reserved.
      ctx.progress(done, books.length, `Reserving ${book.title}`);
      if (await this.reservations.reserve(book, weeks)) reserved.push(book);
      else ctx.log.warning(`${book.title} is already reserved`);
    }
    if (reserved.length === 0) return 'Those books are already reserved.';
    return `Reserved for ${weeks} week(s): ${reserved.map((book) => book.title).join(', ')}.`;
  }
}

function unknownBook(id: string): never {
  // A UserError becomes an `isError` result the model reads, so it can correct the call.
  throw new UserError(`No book has the id "${id}"; search_books finds the ids`);
}
