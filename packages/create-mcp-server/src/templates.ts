import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How the generated server talks to its clients. */
export type Transport = 'stdio' | 'http';

/** The transports, in the order they are offered. */
export const TRANSPORTS: readonly { name: Transport; hint: string }[] = [
  { name: 'stdio', hint: 'the client launches the server (Claude Desktop, Cursor, VS Code)' },
  { name: 'http', hint: 'Streamable HTTP at http://127.0.0.1:3000/mcp' },
];

/** One template of the root `templates/` folder. */
export interface TemplateInfo {
  name: string;
  hint: string;
  /** What the template serves when no transport is chosen. */
  transport: Transport;
  /** Only this transport: the template is about it. */
  fixedTransport?: boolean;
}

/** The templates, in the order they are offered; each is a folder of `templates/`. */
export const TEMPLATES: readonly TemplateInfo[] = [
  { name: 'basic', hint: 'one tool, one resource, one prompt', transport: 'stdio' },
  { name: 'http', hint: 'Streamable HTTP with the security defaults on', transport: 'http', fixedTransport: true },
  {
    name: 'full',
    hint: 'zod input/output, resource templates with completion, prompts, progress, elicitation',
    transport: 'stdio',
  },
];

/** The template called `name`, if there is one. */
export function findTemplate(name: string): TemplateInfo | undefined {
  return TEMPLATES.find((template) => template.name === name);
}

/** This package's folder (the parent of `dist/`). */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The repository root, when this package runs from a clone of mcp-fw. */
export const REPO_ROOT = resolve(PACKAGE_DIR, '../..');

/** The repository's `templates/`, when this package runs from the mcp-fw repository. */
export const REPO_TEMPLATES_DIR = join(REPO_ROOT, 'templates');

/** Whether this package runs from a clone of mcp-fw (its `packages/create-mcp-server`). */
export function runsFromRepository(): boolean {
  return basename(dirname(PACKAGE_DIR)) === 'packages' && existsSync(join(REPO_TEMPLATES_DIR, 'basic', 'package.json'));
}

/**
 * Where the templates are read from. In the mcp-fw repository that is the root `templates/`,
 * their single source; a published package carries a copy made at `prepack`.
 */
export function templatesDir(): string {
  return runsFromRepository() ? REPO_TEMPLATES_DIR : join(PACKAGE_DIR, 'templates');
}
