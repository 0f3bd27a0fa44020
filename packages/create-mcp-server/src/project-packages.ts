import { FRAMEWORK_PACKAGES, OPTIONAL_FRAMEWORK_PACKAGES } from './framework-packages.js';
import type { Auth, TemplateInfo } from './templates.js';

/**
 * The framework packages a project depends on, npm name → folder in the repository: those of
 * every project, those its template names (`@mcp-fw/typescript` for basic), and `@mcp-fw/auth`
 * with `--auth oauth`.
 */
export function frameworkPackages(plan: {
  auth: Auth;
  template?: Pick<TemplateInfo, 'packages'>;
}): Record<string, string> {
  const packages: Record<string, string> = { ...FRAMEWORK_PACKAGES };
  for (const name of plan.template?.packages ?? [])
    packages[name] = OPTIONAL_FRAMEWORK_PACKAGES[name];
  if (plan.auth === 'oauth') packages['@mcp-fw/auth'] = OPTIONAL_FRAMEWORK_PACKAGES['@mcp-fw/auth'];
  return packages;
}

/** `a`, `a and b`, `a, b and c`: package names in a sentence. */
export function listed(names: readonly string[]): string {
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
