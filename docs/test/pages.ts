// The Markdown pages of the site, as the docs tests read them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../../packages/core/test/support/paths.ts';

export const DOCS_ROOT = join(REPO_ROOT, 'docs');

/** Every hand-written page: `docs/**\/*.md`, without the generated API reference. */
export function docPages(dir = DOCS_ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'api', '.vitepress', '.artefacts'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...docPages(path));
    else if (entry.name.endsWith('.md')) found.push(relative(REPO_ROOT, path));
  }
  return found.sort();
}

export function pageText(page: string): string {
  return readFileSync(join(REPO_ROOT, page), 'utf8');
}
