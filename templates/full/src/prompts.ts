import { Prompt } from '@mcp-fw/core';
import { z } from 'zod';
import { BOOKS, GENRES } from './catalog.js';

const RecommendInput = z.object({
  genre: z.enum(GENRES).describe('The genre to recommend from'),
  mood: z
    .string()
    .optional()
    .describe('What the reader is in the mood for, e.g. "something short"'),
});

/** Prompts: templates the user picks in the client, e.g. as a slash command. */
export class Prompts {
  @Prompt({
    title: 'Recommend a book',
    description: 'Asks for a recommendation among the catalog books of a genre',
    input: RecommendInput,
    complete: { genre: GENRES },
  })
  recommend({ genre, mood }: z.infer<typeof RecommendInput>): string {
    const books = BOOKS.filter((book) => book.genre === genre).map(
      (b) => `- ${b.title} by ${b.author} (${b.year})`,
    );
    const wish = mood ? ` The reader wants ${mood}.` : '';
    return [
      `Recommend one of these ${genre} books and say why in two sentences.${wish}`,
      '',
      ...books,
    ].join('\n');
  }
}
