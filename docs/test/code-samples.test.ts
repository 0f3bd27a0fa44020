// Every ```ts block of the documentation site is compiled, and the whole programs among them are
// run, with the README doc tests' machinery (packages/core/test/support/doc-blocks.ts): a
// fragment is type-checked against the same prelude, a server module or program is started over
// stdio and listed by the official client, a script must exit 0. Blocks import only public
// entry points, so a renamed export fails here, at the page and line that shows it.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blocksOf,
  cliMentions,
  compileWorkspace,
  emitted,
  writeWorkspace,
  type DocBlock,
  type DocDiagnostic,
  type DocWorkspace,
} from '../../packages/core/test/support/doc-blocks.ts';
import { expectServesWhatItDeclares } from '../../packages/core/test/support/doc-served.ts';
import { REPO_ROOT } from '../../packages/core/test/support/paths.ts';
import { PAGES } from '../.vitepress/sidebar.ts';
import { entryPoints } from '../scripts/api.mjs';
import { DOCS_ROOT, docPages, pageText } from './pages.ts';

const run = promisify(execFile);
const BIN = join(REPO_ROOT, 'packages/cli/bin/mcp-fw.js');
const pages = docPages();
const blocks = pages.flatMap((page) => blocksOf(page, pageText(page)));
const servers = blocks.filter((b) => b.kind === 'server-module' || b.kind === 'server-program');
const scripts = blocks.filter((b) => b.kind === 'script');

/** The import paths users may write: every package's public entry points (as the API reference has them). */
function publicEntryPoints(): Set<string> {
  return new Set(entryPoints().map((e) => e.name));
}
const OTHER_IMPORTS =
  /^(node:|zod$|vitest$|hono$|@modelcontextprotocol\/|@opentelemetry\/|\.\/server\.js$|\.\/schemas\.gen\.js$)/;

let workspace: DocWorkspace;
let diagnostics: Map<string, DocDiagnostic[]>;

beforeAll(async () => {
  // Programs run on Node against the built packages (npm test builds them first; incremental).
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/core', 'packages/cli'],
    { cwd: REPO_ROOT },
  );
  workspace = writeWorkspace(blocks, join(REPO_ROOT, '.cache', 'doc-tests-site'));
  diagnostics = await compileWorkspace(workspace, blocks);
}, 120_000);

function problems(block: DocBlock): string[] {
  return [...(diagnostics.get('*') ?? []), ...(diagnostics.get(block.stem) ?? [])].map(
    (d) => `${d.where}: ${d.message}`,
  );
}

describe('the documentation site', () => {
  it('has a page for every sidebar entry, and code on the guide pages', () => {
    const missing = PAGES.filter((p) => !p.link.startsWith('/api/'))
      .map((p) => `docs${p.link}.md`)
      .filter((page) => !existsSync(join(REPO_ROOT, page)));
    expect(missing).toEqual([]);
    expect(pages).toContain('docs/index.md');
    expect(blocks.length).toBeGreaterThan(30);
    expect(new Set(blocks.map((b) => b.kind))).toEqual(
      new Set(['fragment', 'server-module', 'server-program', 'script']),
    );
    expect(DOCS_ROOT).toBe(join(REPO_ROOT, 'docs'));
  });

  it('imports only public entry points in its samples', () => {
    const allowed = publicEntryPoints();
    const foreign = blocks.flatMap((block) =>
      [...block.code.matchAll(/^import[^'"]*from\s+'([^']+)'/gm)]
        .map((m) => m[1])
        .filter((path) => !allowed.has(path) && !OTHER_IMPORTS.test(path))
        .map((path) => `${block.where}: imports ${path}`),
    );
    expect(foreign).toEqual([]);
  });

  it('introduces exactly the public entry points on the API reference page', () => {
    const intro = readFileSync(join(DOCS_ROOT, 'scripts', 'api-intro.md'), 'utf8');
    const listed = [...intro.matchAll(/^\| \[`([^`]+)`\]\(([^)]+)\)/gm)];
    expect(listed.map((m) => m[1]).sort()).toEqual([...publicEntryPoints()].sort());
    for (const [, name, link] of listed) expect(link).toBe(`${name}/index.md`);
  });

  it('uses none of the names renamed in this release in its samples', () => {
    // The old names still compile (deprecated aliases), so only this keeps them off the site.
    // The official SDK's own McpServer may appear where a sample imports the SDK.
    const renamed: readonly [RegExp, string][] = [
      [/\bMcpServer\b/, 'McpFwServer'],
      [/@mcp-fw\/core\/main\b/, '@mcp-fw/core/serve'],
      [/\bresourceUpdated\(/, 'server.resources.updated(uri)'],
      [/\bInputSettings\b/, 'InputRoundSettings'],
    ];
    const found = blocks.flatMap((block) =>
      renamed
        .filter(([old]) => old.test(block.code))
        .filter(
          ([old]) =>
            !(old.source.includes('McpServer') && /@modelcontextprotocol\//.test(block.code)),
        )
        .map(([old, now]) => `${block.where}: ${old.source} (now ${now})`),
    );
    expect(found).toEqual([]);
  });

  it.each(blocks.map((b) => [b.where, b] as const))('%s type-checks', (_where, block) => {
    expect(problems(block)).toEqual([]);
  });

  it.each(servers.map((b) => [b.where, b] as const))(
    '%s starts over stdio and serves the official client what it declares',
    async (_where, block) => {
      expect(problems(block)).toEqual([]);
      await expectServesWhatItDeclares(workspace, block);
    },
  );

  it.each(scripts.map((b) => [b.where, b] as const))(
    '%s runs to completion',
    async (_where, block) => {
      expect(problems(block)).toEqual([]);
      await expect(
        run(process.execPath, [emitted(workspace, block)], {
          cwd: workspace.programs,
          timeout: 20_000,
        }),
      ).resolves.toBeDefined();
    },
  );

  it('names only mcp-fw commands and flags that exist', async () => {
    const mentions = pages.flatMap((page) => cliMentions(page, pageText(page)));
    expect(mentions.length).toBeGreaterThan(10);
    const help = async (...args: string[]) =>
      (
        await run(process.execPath, [BIN, ...args, '--help'], {
          env: { ...process.env, NO_COLOR: '1' },
        })
      ).stdout;
    const commands = [...(await help()).matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]);
    const unknown: string[] = [];
    const helpOf = new Map<string, string>();
    for (const { where, command, flags } of mentions) {
      if (!commands.includes(command)) {
        unknown.push(`${where}: mcp-fw ${command} is not a command (${commands.join(', ')})`);
        continue;
      }
      if (!helpOf.has(command)) helpOf.set(command, await help(command));
      for (const flag of flags)
        if (!new RegExp(`${flag}\\b`).test(helpOf.get(command)!))
          unknown.push(`${where}: mcp-fw ${command} has no ${flag}`);
    }
    expect(unknown).toEqual([]);
  });
});
