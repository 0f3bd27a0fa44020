import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

// What a generated schemas module was made from: each source file the extraction read, with a
// short hash of its text. A renamed parameter changes its file's hash, so a command about to run
// the server can tell the module is stale without loading the TypeScript compiler.

/** Source files (relative to the generated module, `/`-separated) → a hash of their text. */
export type SourceStamp = Record<string, string>;

const MARK = '// mcp-fw-schemas sources: ';

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function shown(from: string, file: string): string {
  return relative(from, file).split(sep).join('/');
}

/**
 * The stamp of `files` for a module written at `target`: only the project's own files count
 * (those under `projectDir`, outside node_modules); the module itself never does.
 */
export function sourceStamp(
  target: string,
  files: readonly string[],
  projectDir: string,
): SourceStamp {
  const stamp: SourceStamp = {};
  const base = dirname(target);
  const inside = (file: string) => {
    const path = relative(projectDir, file);
    return path !== '' && !path.startsWith('..') && !isAbsolute(path);
  };
  for (const file of [...files].sort()) {
    if (resolve(file) === resolve(target) || !inside(file) || /[\\/]node_modules[\\/]/.test(file))
      continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    stamp[shown(base, file)] = hashOf(text);
  }
  return stamp;
}

/** The stamp as the comment line the generated module carries. */
export function renderStamp(stamp: SourceStamp): string {
  return `${MARK}${JSON.stringify(stamp)}\n`;
}

/** The stamp a generated module's text carries, or undefined (none, or an older generator's). */
export function readStamp(text: string): SourceStamp | undefined {
  const line = text.split('\n').find((l) => l.startsWith(MARK));
  if (!line) return undefined;
  try {
    const stamp = JSON.parse(line.slice(MARK.length)) as unknown;
    return stamp && typeof stamp === 'object' && !Array.isArray(stamp)
      ? (stamp as SourceStamp)
      : undefined;
  } catch {
    return undefined;
  }
}

/** How a generated module compares with the sources it was made from. */
export type Freshness =
  | { readonly state: 'fresh' }
  | { readonly state: 'missing' }
  | { readonly state: 'unstamped' }
  /** `changed`: the sources (relative to the module) whose text differs or that are gone. */
  | { readonly state: 'stale'; readonly changed: readonly string[] };

/**
 * Whether the module at `target` still matches the sources named in its stamp. A source added
 * since is not seen unless a stamped file imports it, which changes that file's text.
 *
 * @example
 * ```ts
 * const freshness = schemasFreshness('src/schemas.gen.ts');
 * if (freshness.state === 'stale') console.error(`changed since: ${freshness.changed.join(', ')}`);
 * ```
 */
export function schemasFreshness(target: string): Freshness {
  let text: string;
  try {
    text = readFileSync(target, 'utf8');
  } catch {
    return { state: 'missing' };
  }
  const stamp = target.endsWith('.json') ? undefined : readStamp(text);
  if (!stamp) return { state: 'unstamped' };
  const base = dirname(target);
  const changed = Object.entries(stamp)
    .filter(([file, hash]) => {
      try {
        return hashOf(readFileSync(resolve(base, file), 'utf8')) !== hash;
      } catch {
        return true;
      }
    })
    .map(([file]) => file);
  return changed.length ? { state: 'stale', changed } : { state: 'fresh' };
}
