import { Resource, Tool } from '@mcp-fw/core';
import { z } from 'zod';

/** One saved note. */
export interface Note {
  id: number;
  text: string;
}

/** Where the notes are kept: in this process, or in Redis beside the framework's shared state. */
export interface NoteStore {
  /** Saves `text` as the next note and returns it with its number. */
  add(text: string): Promise<Note>;
  /** Every saved note, oldest first. */
  list(): Promise<Note[]>;
}

/** The notes of one process: every client of this process sees them, no other process does. */
export class MemoryNotes implements NoteStore {
  readonly #notes: Note[] = [];

  async add(text: string): Promise<Note> {
    const note = { id: this.#notes.length + 1, text };
    this.#notes.push(note);
    return note;
  }

  async list(): Promise<Note[]> {
    return [...this.#notes];
  }
}

/** The two list commands the notes need, from the Redis client. */
interface ListCommands {
  rPush(key: string, value: string): Promise<number>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
}

/**
 * The notes in one Redis list, so every instance behind a load balancer reads and writes the
 * same ones. RPUSH answers the list's new length, which numbers the note without a race between
 * instances. Connects on first use, so a server that is only listed or inspected never does.
 */
export class RedisNotes implements NoteStore {
  readonly #url: string;
  readonly #key: string;
  #client?: Promise<ListCommands>;

  constructor(url: string, key = 'mcp-fw-template-http:notes') {
    this.#url = url;
    this.#key = key;
  }

  async add(text: string): Promise<Note> {
    const redis = await this.#connected();
    return { id: await redis.rPush(this.#key, text), text };
  }

  async list(): Promise<Note[]> {
    const redis = await this.#connected();
    return (await redis.lRange(this.#key, 0, -1)).map((text, index) => ({ id: index + 1, text }));
  }

  #connected(): Promise<ListCommands> {
    this.#client ??= (async () => {
      // Loaded only here: a server without Redis never pays for the client.
      const { createClient } = await import('@redis/client');
      const client = createClient({ url: this.#url });
      // Without a listener, a lost connection would be an uncaught 'error' event; the failed
      // command itself reaches the caller (masked as an internal error, logged on stderr).
      client.on('error', () => undefined);
      await client.connect();
      // The server's own handles keep the process alive, not this connection.
      client.unref();
      return client;
    })();
    return this.#client;
  }
}

const AddNoteInput = z.object({ text: z.string().min(1).describe('What to remember') });

/**
 * A notepad. Over HTTP one server process serves many clients, each in its own session, and
 * they all share this one instance: a note saved by one client is listed by the others. With
 * `--redis <url>` or `REDIS_URL` the notes live in Redis (src/server.ts), so every instance
 * behind a load balancer lists the same notes.
 */
export class Notes {
  readonly #store: NoteStore;

  constructor(store: NoteStore = new MemoryNotes()) {
    this.#store = store;
  }

  @Tool({ description: 'Saves a note and returns its number', input: AddNoteInput })
  async add_note({ text }: z.infer<typeof AddNoteInput>): Promise<string> {
    const note = await this.#store.add(text);
    return `Saved note ${note.id}.`;
  }

  @Tool({
    description: 'Lists every saved note',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  })
  async list_notes(): Promise<string> {
    const notes = await this.#store.list();
    if (notes.length === 0) return 'No notes yet.';
    return notes.map((note) => `${note.id}. ${note.text}`).join('\n');
  }

  @Resource('notes://all', {
    title: 'All notes',
    description: 'Every saved note, as JSON',
    mimeType: 'application/json',
  })
  async all(): Promise<string> {
    return JSON.stringify(await this.#store.list());
  }
}
