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
  /** Offers the {@link AUTHS} choice (an HTTP server can ask its callers for tokens). */
  auth?: boolean;
}

/** Whether the generated HTTP server asks its callers for OAuth bearer tokens. */
export type Auth = 'none' | 'oauth';

/** The auth choices, in the order they are offered. */
export const AUTHS: readonly { name: Auth; hint: string }[] = [
  {
    name: 'none',
    hint: 'anyone who can reach the server may call it (it listens on 127.0.0.1 only)',
  },
  {
    name: 'oauth',
    hint: 'OAuth 2.1 bearer tokens, scopes per tool, a local authorization server for development',
  },
];

/**
 * The folder of `templates/` laid over the `http` template when `oauth` is chosen: its files
 * replace or join the template's, and its `package.overlay.json` is merged into package.json.
 * Not a template of its own: it holds only what OAuth changes.
 */
export const OAUTH_OVERLAY = 'http-oauth';

/**
 * The folder laid over the `http` template instead of {@link OAUTH_OVERLAY} when an identity
 * provider is chosen (`--idp`): the server is its own authorization server, people sign in at
 * that provider. Its `src/idp.ts` is the GitHub one; the scaffolder writes the chosen one.
 */
export const OWN_AUTHORIZATION_SERVER_OVERLAY = 'http-oauth-idp';

/** The templates, in the order they are offered; each is a folder of `templates/` ({@link OAUTH_OVERLAY} aside). */
export const TEMPLATES: readonly TemplateInfo[] = [
  // Its schemas are read from its TypeScript types by @mcp-fw/typescript.
  { name: 'basic', hint: 'one tool, one resource, one prompt', transport: 'stdio' },
  {
    name: 'http',
    hint: 'Streamable HTTP with the security defaults on',
    transport: 'http',
    fixedTransport: true,
    auth: true,
  },
  {
    name: 'full',
    hint: 'zod input/output, resource templates with completion, prompts, progress, elicitation',
    transport: 'stdio',
  },
  {
    name: 'apps',
    hint: 'an MCP Apps view (HTML bundled by Vite) shown by a tool, with an app-only tool',
    transport: 'stdio',
  },
  {
    name: 'workers',
    hint: 'a Cloudflare Worker: 2026-07-28 in the Worker, 2025 sessions in Durable Objects',
    transport: 'http',
    fixedTransport: true,
  },
];

/** The template called `name`, if there is one. */
export function findTemplate(name: string): TemplateInfo | undefined {
  return TEMPLATES.find((template) => template.name === name);
}

/** Where mcp-fw's repository is cloned from (the README's and the site's `git clone`). */
export const REPOSITORY_URL = 'https://github.com/mcp-fw/mcp-fw.git';

/** This package's folder (the parent of `dist/`). */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The repository root, when this package runs from a clone of mcp-fw. */
export const REPO_ROOT = resolve(PACKAGE_DIR, '../..');

/** The repository's `templates/`, when this package runs from the mcp-fw repository. */
export const REPO_TEMPLATES_DIR = join(REPO_ROOT, 'templates');

/** Whether this package runs from a clone of mcp-fw (its `packages/create-mcp-server`). */
export function runsFromRepository(): boolean {
  return (
    basename(dirname(PACKAGE_DIR)) === 'packages' &&
    existsSync(join(REPO_TEMPLATES_DIR, 'basic', 'package.json'))
  );
}

/**
 * Where the templates are read from. In the mcp-fw repository that is the root `templates/`,
 * their single source; a published package carries a copy made at `prepack`.
 */
export function templatesDir(): string {
  return runsFromRepository() ? REPO_TEMPLATES_DIR : join(PACKAGE_DIR, 'templates');
}
