import { createServer, type McpFwServer } from '@mcp-fw/core';
import { BookResources } from './book-resources.js';
import { Books } from './books.js';
import { Prompts } from './prompts.js';
import { Reservations } from './reservations.js';

/** A library server with no reservations yet (tests build one each, to start clean). */
export function createLibraryServer(): McpFwServer {
  return createServer({
    name: 'mcp-fw-template-full',
    version: '0.1.0',
    instructions:
      'A small library. search_books finds books and their ids; reserve_books reserves them after ' +
      'the user confirms; books://{id} reads one book.',
    // A class is constructed for you; pass an instance when it needs dependencies.
    providers: [new Books(new Reservations()), BookResources, Prompts],
  });
}

/** The server `npm run dev`, `npm start` and `node dist/main.js` serve. */
export const server = createLibraryServer();
