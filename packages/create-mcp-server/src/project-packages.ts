import { FRAMEWORK_PACKAGES, OPTIONAL_FRAMEWORK_PACKAGES } from './framework-packages.js';
import type { Auth } from './templates.js';

/**
 * The framework packages a project depends on, npm name → folder in the repository: those of
 * every project, and `@mcp-fw/auth` with `--auth oauth`.
 */
export function frameworkPackages(plan: { auth: Auth }): Record<string, string> {
  if (plan.auth !== 'oauth') return { ...FRAMEWORK_PACKAGES };
  return { ...FRAMEWORK_PACKAGES, '@mcp-fw/auth': OPTIONAL_FRAMEWORK_PACKAGES['@mcp-fw/auth'] };
}

/** `a`, `a and b`, `a, b and c`: package names in a sentence. */
export function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
