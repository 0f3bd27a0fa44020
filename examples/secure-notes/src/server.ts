import { createServer } from '@mcp-fw/core';
import { Notes } from './notes.js';

/** The scopes the notes server's members declare: what its metadata lists as supported. */
export const NOTES_SCOPES = ['notes:read', 'notes:write'] as const;

export function createNotesServer() {
  return createServer({ name: 'secure-notes', version: '0.1.0', providers: [Notes] });
}
