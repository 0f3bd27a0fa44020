import type { Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside, type Resolution } from './root-guard.js';

/** The URI of the served directory itself. */
export const ROOT_URI = 'file:///';

/** One regular file below the root. */
export interface FileInfo {
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly size: number;
  /** Changes whenever the file's contents may have changed (size, mtime or inode). */
  readonly signature: string;
}

/** What one walk of the tree found. */
export interface TreeScan {
  readonly files: FileInfo[];
  /** The directories walked, `''` being the root. */
  readonly directories: string[];
}

// Enumeration is bounded so that pointing the server at a huge tree costs a bounded walk.
const MAX_FILES = 1000;
const MAX_DIRECTORIES = 1000;
const MAX_DEPTH = 16;

/** The URI of a path below the root; each segment is percent-encoded, so any name round-trips. */
export function uriOf(path: string): string {
  return ROOT_URI + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * A directory served read-only. Its root is a real path (symlinks resolved once, at startup),
 * which is what every resolved path is checked against.
 */
export class FileTree {
  private constructor(readonly root: string) {}

  /** Opens `dir`; fails when it does not exist or is not a directory. */
  static async open(dir: string): Promise<FileTree> {
    const root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a directory`);
    return new FileTree(root);
  }

  /** Resolves a client-supplied relative path; see {@link resolveInside}. */
  resolve(path: string): Promise<Resolution> {
    return resolveInside(this.root, path);
  }

  /** The regular files below the root, sorted by path; see {@link scan}. */
  async files(): Promise<FileInfo[]> {
    return (await this.scan()).files;
  }

  /**
   * Walks the tree: at most 1000 files in 1000 directories, 16 levels deep. Symlinks are not followed, so the walk
   * never leaves the root.
   */
  async scan(): Promise<TreeScan> {
    const files: FileInfo[] = [];
    const directories: string[] = [];
    const pending: { dir: string; depth: number }[] = [{ dir: '', depth: 0 }];
    while (pending.length > 0 && files.length < MAX_FILES && directories.length < MAX_DIRECTORIES) {
      const { dir, depth } = pending.shift()!;
      directories.push(dir);
      const entries = await readdir(join(this.root, dir), { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => compare(a.name, b.name))) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory() && depth + 1 < MAX_DEPTH)
          pending.push({ dir: path, depth: depth + 1 });
        if (!entry.isFile() || files.length >= MAX_FILES) continue;
        const info = await stat(join(this.root, path)).catch(() => undefined);
        if (info) files.push({ path, size: info.size, signature: signatureOf(info) });
      }
    }
    return { files: files.sort((a, b) => compare(a.path, b.path)), directories };
  }

  /** Paths of files starting with `prefix`, for completion of the template's `path`. */
  async complete(prefix: string): Promise<string[]> {
    return (await this.files()).map((f) => f.path).filter((p) => p.startsWith(prefix));
  }
}

/** A file's {@link FileInfo.signature} from its stats. */
export function signatureOf(info: Stats): string {
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** Code-point order: the same on every machine, whatever its locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
