import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/** The modules an entry reaches: local files, and the packages those files import. */
export interface ImportGraph {
  readonly files: readonly string[];
  /** Bare specifiers (packages), in the order first met. */
  readonly packages: readonly string[];
}

// Compiled JavaScript (tsc output) has a regular shape, so a scan finds every static import,
// re-export, dynamic import with a literal specifier, and require. A string that only looks
// like one adds a file to watch, nothing worse.
const SPECIFIERS = [
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?["']([^"'\n]+)["']/g,
  /\bimport\(\s*["']([^"'\n]+)["']\s*\)/g,
  /\brequire\(\s*["']([^"'\n]+)["']\s*\)/g,
];

const LOCAL = /^(\.{1,2}\/|\/|file:)/;
const CJS_SUFFIXES = ['', '.js', '.cjs', '.json', '/index.js'];

/**
 * Walks the import graph of a compiled entry by reading its files, without running them: the
 * files are watched for changes, and the packages preloaded into the next child. A bare
 * specifier (a package) ends the walk, so node_modules is never watched. `home` is the
 * directory the entry's own files live in.
 */
export function importGraph(entry: string, home = dirname(entry)): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.[cm]?js$/.test(file)) continue;
    let code: string;
    try {
      code = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const pattern of SPECIFIERS) {
      for (const [, specifier] of code.matchAll(pattern)) {
        if (LOCAL.test(specifier)) {
          const target = resolveLocal(specifier, file);
          // Compiled output lives in node_modules/.cache, under `home`; other node_modules never.
          if (target && (target.startsWith(home) || !target.includes('/node_modules/')))
            pending.push(target);
        } else if (!specifier.startsWith('#') && !isBuiltin(specifier)) {
          packages.add(specifier);
        }
      }
    }
  }
  return { files: [...files], packages: [...packages] };
}

function resolveLocal(specifier: string, from: string): string | undefined {
  const base = specifier.startsWith('file:')
    ? new URL(specifier).pathname
    : resolve(dirname(from), specifier.split(/[?#]/)[0]);
  for (const suffix of CJS_SUFFIXES) {
    const candidate = suffix.startsWith('/') ? join(base, suffix) : base + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}
