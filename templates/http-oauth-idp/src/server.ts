import { createServer, type McpFwServer } from '@mcp-fw/core';
import { Notes } from './notes.js';

/** A server with an empty notepad (tests build one each, so they start from no notes). */
export function createNotesServer(): McpFwServer {
  return createServer({
    name: 'mcp-fw-template-http',
    version: '0.1.0',
    instructions:
      'A notepad shared by every client: list_notes lists the notes (scope notes:read), add_note saves one (scope notes:write).',
    providers: [new Notes()],
    // Clients see "Internal error (ref …)" for unexpected errors; the real message and stack go to stderr.
    maskInternalErrors: true,
  });
}

/** The server `npm run dev`, `npm start` and `node dist/main.js` serve. */
export const server = createNotesServer();
