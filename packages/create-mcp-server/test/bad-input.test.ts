import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli, tempDir, tree } from './support/cli.ts';

// Every refusal: a message naming the problem and its fix on stderr, exit code 1, nothing
// written. `--no-install --no-git` everywhere, so a wrongly accepted input could not touch the
// network either.
let cwd: string;
let remove: () => void;
beforeEach(() => {
  ({ dir: cwd, remove } = tempDir('bad-input'));
});
afterEach(() => remove());

const HELP = 'Run create-mcp-server --help for the options.\n';

async function refused(args: string[]): Promise<string> {
  const before = tree(cwd);
  const result = await runCli(['--no-install', '--no-git', ...args], { cwd });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(tree(cwd)).toEqual(before);
  return result.stderr;
}

it('refuses an invalid package name', async () => {
  expect(await refused(['My Server', '--template', 'basic'])).toBe(
    `create-mcp-server: "My Server" is not a valid npm package name: it cannot contain capital letters\n${HELP}`,
  );
  expect(await refused(['.hidden', '--template', 'basic'])).toBe(
    `create-mcp-server: ".hidden" is not a valid npm package name: it cannot start with a period\n${HELP}`,
  );
  expect(await refused(['fs', '--template', 'basic'])).toBe(
    `create-mcp-server: "fs" is not a valid npm package name: fs is the name of a Node.js core module\n${HELP}`,
  );
  expect(readdirSync(cwd)).toEqual([]);
});

it('refuses a directory that is not empty, without --force', async () => {
  mkdirSync(join(cwd, 'taken'));
  writeFileSync(join(cwd, 'taken', 'notes.txt'), 'mine\n');
  expect(await refused(['taken', '--template', 'basic', '--transport', 'stdio'])).toBe(
    `create-mcp-server: ${join(cwd, 'taken')} is not empty; choose another directory, or pass --force to write into it\n${HELP}`,
  );
  expect(tree(cwd)).toEqual({ 'taken/notes.txt': 'mine\n' });
});

it('refuses a target that is a file, even with --force', async () => {
  writeFileSync(join(cwd, 'server'), 'a file\n');
  expect(await refused(['server', '--yes', '--force'])).toBe(
    `create-mcp-server: ${join(cwd, 'server')} is a file; choose another directory\n${HELP}`,
  );
});

it('refuses an unknown template', async () => {
  expect(await refused(['my-server', '--template', 'fancy'])).toBe(
    `create-mcp-server: unknown template "fancy"; choose one of basic, http, full, apps, workers\n${HELP}`,
  );
});

it('refuses an unknown transport, and stdio for the http template', async () => {
  expect(await refused(['my-server', '--template', 'basic', '--transport', 'sse'])).toBe(
    `create-mcp-server: unknown transport "sse"; choose one of stdio, http\n${HELP}`,
  );
  expect(await refused(['my-server', '--template', 'http', '--transport', 'stdio'])).toBe(
    `create-mcp-server: the http template only serves http; for stdio, choose basic, full or apps\n${HELP}`,
  );
});

it('refuses --auth oauth for stdio and for the templates without it, naming the fix', async () => {
  expect(await refused(['my-server', '--auth', 'oauth', '--transport', 'stdio'])).toBe(
    'create-mcp-server: --auth oauth protects an HTTP server, and stdio has no HTTP requests to carry tokens ' +
      '(a stdio server takes its credentials from its environment); for OAuth, drop --transport stdio and choose --template http; ' +
      `for stdio, drop --auth oauth\n${HELP}`,
  );
  expect(await refused(['my-server', '--template', 'full', '--auth', 'oauth', '--yes'])).toBe(
    `create-mcp-server: the full template has no auth option; for --auth oauth, choose --template http (Streamable HTTP), or drop --auth\n${HELP}`,
  );
  expect(await refused(['my-server', '--auth', 'sso'])).toBe(
    `create-mcp-server: unknown auth "sso"; choose one of none, oauth\n${HELP}`,
  );
});

it('refuses unknown options and extra arguments', async () => {
  expect(await refused(['my-server', '--tempalte', 'full'])).toBe(
    `create-mcp-server: unknown option --tempalte\n${HELP}`,
  );
  expect(await refused(['my-server', '--template'])).toBe(
    `create-mcp-server: Option '-t, --template <value>' argument missing\n${HELP}`,
  );
  expect(await refused(['my-server', 'other-server', '--yes'])).toBe(
    `create-mcp-server: expected one directory, got 2: my-server other-server\n${HELP}`,
  );
});

it('fails, writing nothing, when piped answers run out', async () => {
  const result = await runCli(['my-server', '--no-git'], { cwd, input: 'full\n' });
  expect(result.status).toBe(1);
  expect(result.stderr).toBe(
    'create-mcp-server: the input ended before the question "Transport" was answered; give the answers as options (--help lists them), or --yes for the defaults\n',
  );
  expect(readdirSync(cwd)).toEqual([]);
});
