import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TokenStore } from '../token-store.js';

/**
 * A {@link TokenStore} in a JSON file readable by the user only (mode 0600), so a sign-in
 * survives the process. Writes go through a temporary file and a rename, so a crash never
 * leaves half a file.
 *
 * @example
 * ```ts
 * import { connect, oauth } from '@mcp-fw/client';
 * import { FileTokenStore, loopbackRedirect } from '@mcp-fw/client/node';
 *
 * const store = new FileTokenStore(`${process.env.HOME}/.config/my-agent/tokens.json`);
 * const client = await connect(url, { auth: oauth({ store, ...(await loopbackRedirect()) }) });
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** The file's path. */
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  /** The value kept under `key`, or undefined (a missing file holds nothing). */
  async get(key: string): Promise<unknown> {
    return (await this.#read())[key];
  }

  /** Keeps `value` under `key`, rewriting the file. */
  set(key: string, value: unknown): Promise<void> {
    return this.#update((entries) => {
      entries[key] = value;
    });
  }

  /** Forgets `key`, rewriting the file. */
  delete(key: string): Promise<void> {
    return this.#update((entries) => {
      delete entries[key];
    });
  }

  async #read(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {}
    throw new Error(
      `The token store ${this.path} is not a JSON object; delete it to sign in again.`,
    );
  }

  /** Updates are queued so two concurrent writes do not lose one another. */
  #update(change: (entries: Record<string, unknown>) => void): Promise<void> {
    const next = this.#queue.then(async () => {
      const entries = await this.#read();
      change(entries);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(entries, null, 2), { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    });
    this.#queue = next.catch(() => {});
    return next;
  }
}
