import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAMEWORK_PACKAGES, OPTIONAL_FRAMEWORK_PACKAGES } from './framework-packages.js';

/**
 * The framework packages the project written in `project.dir` depends on, npm name → folder in
 * the repository, read from its package.json (dependencies and devDependencies), so whatever
 * its template and options add — `@mcp-fw/typescript`, `@mcp-fw/redis`, `@mcp-fw/auth` — is
 * vendored with it. In the order of the tables: core and cli first.
 */
export function frameworkPackages(project: { dir: string }): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const named = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ]);
  const all: Record<string, string> = { ...FRAMEWORK_PACKAGES, ...OPTIONAL_FRAMEWORK_PACKAGES };
  const unknown = [...named].filter((name) => name.startsWith('@mcp-fw/') && !(name in all));
  // A template naming a package this table lacks would install from the registry, and 404.
  if (unknown.length > 0)
    throw new Error(
      `the template depends on ${listed(unknown)}, which the scaffolder does not know how to pack (add it to OPTIONAL_FRAMEWORK_PACKAGES)`,
    );
  return Object.fromEntries(Object.entries(all).filter(([name]) => named.has(name)));
}

/** `a`, `a and b`, `a, b and c`: package names in a sentence. */
export function listed(names: readonly string[]): string {
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
