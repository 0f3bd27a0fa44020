import { createHash } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Watches a set of files (the entry's import graph) and reports, debounced, the ones whose
 * content changed. Directories are watched rather than files, so editors that save by
 * replacing the file (write to a temporary file, then rename) are seen too.
 */
export class SourceWatcher {
  readonly #dirs = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  readonly #digests = new Map<string, string>();
  readonly #pending = new Set<string>();
  readonly #onChange: (files: string[]) => void;
  readonly #debounceMs: number;
  #timer?: NodeJS.Timeout;

  constructor(onChange: (files: string[]) => void, debounceMs: number) {
    this.#onChange = onChange;
    this.#debounceMs = debounceMs;
  }

  /** Adds files to the watched set, remembering their current content. */
  add(files: Iterable<string>): void {
    for (const file of files) {
      if (this.#digests.has(file)) continue;
      this.#digests.set(file, digest(file));
      const dir = dirname(file);
      let entry = this.#dirs.get(dir);
      if (!entry) {
        const names = new Set<string>();
        const watcher = watch(dir, (_event, name) => {
          if (name && names.has(name.toString())) this.#touched(`${dir}/${name}`);
        });
        watcher.on('error', () => {});
        this.#dirs.set(dir, (entry = { watcher, names }));
      }
      entry.names.add(basename(file));
    }
  }

  /**
   * Takes a file's current content as known, so writing it ourselves (a generated module)
   * does not come back as a change.
   */
  remember(file: string): void {
    if (this.#digests.has(file)) this.#digests.set(file, digest(file));
  }

  /** The files watched now. */
  get files(): string[] {
    return [...this.#digests.keys()];
  }

  close(): void {
    clearTimeout(this.#timer);
    for (const { watcher } of this.#dirs.values()) watcher.close();
    this.#dirs.clear();
  }

  #touched(file: string): void {
    this.#pending.add(file);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#flush(), this.#debounceMs);
  }

  #flush(): void {
    const changed: string[] = [];
    for (const file of this.#pending) {
      const now = digest(file);
      // Editors touch files without changing them (and write twice per save): content decides.
      if (now !== this.#digests.get(file)) changed.push(file);
      this.#digests.set(file, now);
    }
    this.#pending.clear();
    if (changed.length) this.#onChange(changed);
  }
}

function digest(file: string): string {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('hex');
  } catch {
    return 'missing';
  }
}
