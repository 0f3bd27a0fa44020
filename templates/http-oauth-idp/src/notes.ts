import { Resource, Scopes, Tool } from '@mcp-fw/core';
import { z } from 'zod';

/** One saved note. */
export interface Note {
  id: number;
  text: string;
}

const AddNoteInput = z.object({ text: z.string().min(1).describe('What to remember') });

/**
 * A notepad shared by every client. Over HTTP each request carries a bearer token, and a member
 * runs only when the token grants its scopes: reading needs `notes:read` (the class default),
 * saving needs `notes:write`. A token without them gets 403 naming the scope to ask for.
 */
@Scopes('notes:read')
export class Notes {
  readonly #notes: Note[] = [];

  @Tool({
    description: 'Saves a note and returns its number',
    input: AddNoteInput,
    scopes: ['notes:write'],
  })
  add_note({ text }: z.infer<typeof AddNoteInput>): string {
    const note = { id: this.#notes.length + 1, text };
    this.#notes.push(note);
    return `Saved note ${note.id}.`;
  }

  @Tool({
    description: 'Lists every saved note',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  })
  list_notes(): string {
    if (this.#notes.length === 0) return 'No notes yet.';
    return this.#notes.map((note) => `${note.id}. ${note.text}`).join('\n');
  }

  @Resource('notes://all', {
    title: 'All notes',
    description: 'Every saved note, as JSON',
    mimeType: 'application/json',
  })
  all(): string {
    return JSON.stringify(this.#notes);
  }
}
