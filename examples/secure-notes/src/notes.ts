import { Resource, Scopes, Tool, UserError, type Context } from '@mcp-fw/core';
import { authInfo } from '@mcp-fw/auth';
import { z } from 'zod';

interface Note {
  readonly id: number;
  readonly text: string;
}

/**
 * Whose notes a request reaches: over HTTP, the token's subject; over stdio, where there is no
 * token, the local user named by `NOTES_USER` (stdio servers take credentials from their
 * environment, never from the protocol).
 */
function ownerOf(ctx: Context): string {
  if (ctx.auth !== undefined) return authInfo(ctx).subject ?? authInfo(ctx).clientId ?? 'unknown';
  return process.env.NOTES_USER ?? 'local';
}

/** Each user's notes. Reading needs `notes:read` (the class default); changing them `notes:write`. */
@Scopes('notes:read')
export class Notes {
  readonly #notes = new Map<string, Note[]>();
  #nextId = 1;

  #of(ctx: Context): Note[] {
    const owner = ownerOf(ctx);
    let notes = this.#notes.get(owner);
    if (!notes) this.#notes.set(owner, (notes = []));
    return notes;
  }

  @Tool({
    description: "Lists the caller's notes, one per line as `#id text`",
    input: z.object({}),
    annotations: { readOnlyHint: true },
  })
  list_notes(_: object, ctx: Context) {
    const notes = this.#of(ctx);
    return notes.length === 0 ? 'No notes yet.' : notes.map((n) => `#${n.id} ${n.text}`).join('\n');
  }

  @Tool({
    description: 'Adds a note for the caller and returns its id',
    input: z.object({ text: z.string().min(1).max(2000) }),
    scopes: ['notes:write'],
  })
  add_note({ text }: { text: string }, ctx: Context) {
    const note = { id: this.#nextId++, text };
    this.#of(ctx).push(note);
    return `Added note #${note.id}`;
  }

  @Tool({
    description: "Deletes one of the caller's notes by id",
    input: z.object({ id: z.number().int() }),
    scopes: ['notes:write'],
    annotations: { destructiveHint: true },
  })
  delete_note({ id }: { id: number }, ctx: Context) {
    const notes = this.#of(ctx);
    const at = notes.findIndex((n) => n.id === id);
    if (at < 0) throw new UserError(`No note #${id}; list_notes shows the ids`);
    notes.splice(at, 1);
    return `Deleted note #${id}`;
  }

  @Resource('notes://{id}', {
    description: "One of the caller's notes, by id",
    mimeType: 'text/plain',
  })
  note({ id }: { id: string }, ctx: Context) {
    const note = this.#of(ctx).find((n) => String(n.id) === id);
    if (!note) throw new UserError(`No note #${id}`);
    return note.text;
  }
}
