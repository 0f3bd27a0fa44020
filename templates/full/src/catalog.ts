/** The genres of the catalog, offered as completions of the `recommend` prompt. */
export const GENRES = ['fantasy', 'mystery', 'science-fiction'] as const;

/** One book of the catalog. */
export interface Book {
  id: string;
  title: string;
  author: string;
  year: number;
  genre: (typeof GENRES)[number];
}

/** A small, fixed catalog; a real server would read a database or call an API here. */
export const BOOKS: readonly Book[] = [
  { id: 'dune', title: 'Dune', author: 'Frank Herbert', year: 1965, genre: 'science-fiction' },
  {
    id: 'foundation',
    title: 'Foundation',
    author: 'Isaac Asimov',
    year: 1951,
    genre: 'science-fiction',
  },
  {
    id: 'neuromancer',
    title: 'Neuromancer',
    author: 'William Gibson',
    year: 1984,
    genre: 'science-fiction',
  },
  {
    id: 'the-hobbit',
    title: 'The Hobbit',
    author: 'J. R. R. Tolkien',
    year: 1937,
    genre: 'fantasy',
  },
  {
    id: 'earthsea',
    title: 'A Wizard of Earthsea',
    author: 'Ursula K. Le Guin',
    year: 1968,
    genre: 'fantasy',
  },
  {
    id: 'the-big-sleep',
    title: 'The Big Sleep',
    author: 'Raymond Chandler',
    year: 1939,
    genre: 'mystery',
  },
  {
    id: 'gaudy-night',
    title: 'Gaudy Night',
    author: 'Dorothy L. Sayers',
    year: 1935,
    genre: 'mystery',
  },
];

/** The book with this id, if the catalog has it. */
export function findBook(id: string): Book | undefined {
  return BOOKS.find((book) => book.id === id);
}
