import { createServer } from '@mcp-fw/core';
import { Notes } from './notes.js';

export function createNotesServer() {
  return createServer({ name: 'secure-notes', version: '0.1.0', providers: [Notes] });
}
