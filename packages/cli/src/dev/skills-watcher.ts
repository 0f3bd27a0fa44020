import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/**
 * Watches the project's skills folder (`skills/`, which `loadSkills` reads once at startup)
 * as a whole, recursively: unlike source files, skills are not in the import graph, and a new
 * skill is a new file nobody imports. Reports, debounced, the files whose content changed,
 * appeared or disappeared; editors that touch without changing are ignored.
 */
export class SkillsWatcher {
  readonly #dir: string;
  readonly #onChange: (files: string[]) => void;
  readonly #debounceMs: number;
  #digests: Map<string, string>;
  #watcher?: FSWatcher;
  #timer?: NodeJS.Timeout;

  constructor(dir: string, onChange: (files: string[]) => void, debounceMs: number) {
    this.#dir = dir;
    this.#onChange = onChange;
    this.#debounceMs = debounceMs;
    this.#digests = snapshot(dir);
    // Recursive fs.watch works on Linux, macOS and Windows from Node 20.
    this.#watcher = watch(dir, { recursive: true }, () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#flush(), this.#debounceMs);
    });
    this.#watcher.on('error', () => {});
  }

  /** The project's skills folder, when it has one. */
  static folderOf(projectDir: string): string | undefined {
    const dir = join(projectDir, 'skills');
    return existsSync(dir) && statSync(dir).isDirectory() ? dir : undefined;
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #flush(): void {
    const now = snapshot(this.#dir);
    const changed = [...new Set([...now.keys(), ...this.#digests.keys()])].filter(
      (file) => now.get(file) !== this.#digests.get(file),
    );
    this.#digests = now;
    if (changed.length) this.#onChange(changed.sort());
  }
}

/** Every file below `dir` (dot-names skipped, as loadSkills skips them) with a content digest. */
function snapshot(dir: string): Map<string, string> {
  const digests = new Map<string, string>();
  const walk = (at: string) => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(at, name);
      try {
        if (statSync(path).isDirectory()) walk(path);
        else digests.set(path, createHash('sha1').update(readFileSync(path)).digest('hex'));
      } catch {
        // Gone between the listing and the read: the next event sees it.
      }
    }
  };
  walk(dir);
  return digests;
}
