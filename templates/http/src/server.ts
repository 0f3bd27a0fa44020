import { createServer, type McpFwServer } from '@mcp-fw/core';
import { sharedStoreUrl } from '@mcp-fw/core/serve';
import { MemoryNotes, type NoteStore, Notes, RedisNotes } from './notes.js';

/**
 * A server with a notepad: empty and in memory by default (tests build one each, so they start
 * from no notes), or `store` — such as the notes in Redis that several instances share.
 */
export function createNotesServer(store: NoteStore = new MemoryNotes()): McpFwServer {
  return createServer({
    name: 'mcp-fw-template-http',
    version: '0.1.0',
    instructions: 'A notepad shared by every client: add_note saves a note, list_notes lists them.',
    providers: [new Notes(store)],
    // Clients see "Internal error (ref …)" for unexpected errors; the real message and stack go to stderr.
    maskInternalErrors: true,
  });
}

// The Redis that `--redis <url>` or REDIS_URL gives serveFromArgs for the sessions and the rest
// of the framework's shared state holds the notes too, so every instance lists the same ones.
const redisUrl = sharedStoreUrl();

/** The server `npm run dev`, `npm start` and `node dist/main.js` serve. */
export const server = createNotesServer(redisUrl ? new RedisNotes(redisUrl) : new MemoryNotes());
