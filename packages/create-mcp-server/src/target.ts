import { readdirSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';

/** Where the project goes, and the package name it gets. */
export interface Target {
  /** Absolute. */
  dir: string;
  packageName: string;
}

/**
 * The directory and package name for what the user typed: a path (`my-server`,
 * `../servers/weather`, `.`) is named after its last segment; a scoped name (`@acme/weather`)
 * goes to a folder named without the scope.
 */
export function targetOf(input: string, cwd: string): Target {
  const scoped = /^@[^/]+\/([^/]+)$/.exec(input);
  if (scoped) return { dir: resolve(cwd, scoped[1]), packageName: input };
  const dir = resolve(cwd, input);
  return { dir, packageName: basename(dir) };
}

/**
 * What is at `dir` already: a file (never written over), a directory with files in it (written
 * into only with `--force`), or nothing in the way (undefined).
 */
export function occupant(dir: string): 'file' | 'files' | undefined {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) return 'file';
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  // An empty clone (only .git) counts as empty, as in create-vite.
  return entries.some((entry) => entry !== '.git') ? 'files' : undefined;
}
