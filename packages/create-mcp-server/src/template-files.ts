import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// Build output and the repository-only tsconfig never reach a generated project.
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'tsconfig.workspace.json',
  '.vitest-results.json',
]);

/**
 * The files of the template folder `dir`, as paths relative to it (with `/`), sorted: what the
 * scaffolder copies and what `prepack` packs.
 */
export function templateFiles(dir: string): string[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true })
      .filter((entry) => !SKIPPED.has(entry.name) && !entry.name.endsWith('.tsbuildinfo'))
      .flatMap((entry) =>
        entry.isDirectory() ? walk(join(at, entry.name)) : [join(at, entry.name)],
      );
  return walk(dir)
    .map((path) => relative(dir, path).replaceAll('\\', '/'))
    .sort();
}

/**
 * Where a template file lands in the project. npm drops `.gitignore` from tarballs, so the
 * templates keep it as `_gitignore`.
 */
export function projectPath(templatePath: string): string {
  return templatePath.replace(/(^|\/)_gitignore$/, '$1.gitignore');
}
