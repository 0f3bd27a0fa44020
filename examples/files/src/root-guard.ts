import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Where a client-supplied path led: inside the root, refused as malformed, or nowhere. */
export type Resolution =
  | { readonly kind: 'inside'; readonly realPath: string }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'missing' };

const MAX_PATH_LENGTH = 4096;

/**
 * Checks a relative path as the client wrote it (already percent-decoded, exactly once, by the
 * URI template): plain `/`-separated segments, nothing that could climb out of the root or be
 * read differently by the file system. Returns why it is refused, or undefined when it is fine.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.length > MAX_PATH_LENGTH) return `the path is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes('\0')) return 'the path contains a NUL byte';
  // A backslash is a separator on Windows; refusing it keeps the rules the same everywhere.
  if (path.includes('\\')) return 'the path contains a backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    return 'the path must be relative to the served directory';
  // One trailing slash is how clients often name a directory; anything else empty is an alias.
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (segments.some((s) => s === '')) return 'the path has an empty segment';
  if (segments.some((s) => s === '.' || s === '..'))
    return 'the path may not contain "." or ".." segments';
  return undefined;
}

/**
 * Resolves `path` below `root` (which must already be a real path). The lexical check refuses
 * traversal outright; `realpath` then follows symlinks, and a target outside the root is
 * reported as missing so that nothing outside is read — or even confirmed to exist.
 */
export async function resolveInside(root: string, path: string): Promise<Resolution> {
  const reason = pathProblem(path);
  if (reason) return { kind: 'invalid', reason };
  let real: string;
  try {
    real = await realpath(join(root, path));
  } catch {
    return { kind: 'missing' };
  }
  return isInside(root, real) ? { kind: 'inside', realPath: real } : { kind: 'missing' };
}

/** Whether the real path `real` is `root` itself or lies below it. */
export function isInside(root: string, real: string): boolean {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return real === root || real.startsWith(prefix);
}
