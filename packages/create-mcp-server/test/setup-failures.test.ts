import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { packFramework } from '../src/framework-packages.ts';
import { runCli, tempDir } from './support/cli.ts';

// A setup step that fails ends the run with exit code 1: the cause when it is one we know, the
// end of the failing command's output, the fix, and where the files are. "Done." never follows.
let cwd: string;
let remove: () => void;
beforeEach(() => {
  ({ dir: cwd, remove } = tempDir('setup-failures'));
});
afterEach(() => remove());

// A registry that has nothing: what the public registry answers for @mcp-fw/* before they are
// published (the "404 for @mcp-fw/cli@^0.1.0").
let registry: Server;
let registryUrl: string;
beforeAll(async () => {
  registry = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});
afterAll(() => registry.close());

it('names the unpublished @mcp-fw package and the way to scaffold without it when the install gets 404', async () => {
  const result = await runCli(
    ['my-server', '--template', 'basic', '--published', '--no-git', '--yes'],
    {
      cwd,
      env: {
        npm_config_registry: registryUrl,
        npm_config_fetch_retries: '0',
        npm_config_cache: mkdtempSync(join(tmpdir(), 'npm-cache-')),
      },
    },
  );
  expect(result.status).toBe(1);
  expect(result.stdout).not.toContain('Done.');
  expect(result.stderr).toMatch(
    /\ncreate-mcp-server: npm install exited with code 1\.\nCause: @mcp-fw\/(cli|core) is not on the registry the project installs from \(404\), so the published mcp-fw packages cannot be used\.\nOutput of npm install:\n/,
  );
  expect(result.stderr).toMatch(/ {2}npm error 404/);
  expect(result.stderr).toContain(
    'Fix: Scaffold from a clone of mcp-fw, which packs its packages into the project',
  );
  expect(result.stderr).toContain(
    'npm exec --package=./create-mcp-server-0.1.0.tgz -- create-mcp-server <dir>',
  );
  expect(result.stderr).toContain(
    `The project's files are in ${join(cwd, 'my-server')}; the steps after this one were not run.\n`,
  );
  expect(existsSync(join(cwd, 'my-server', 'package.json'))).toBe(true);
}, 60_000);

it('says npm is offline without the packages when the install cannot fetch them', async () => {
  const result = await runCli(['my-server', '--template', 'basic', '--no-git', '--yes'], {
    cwd,
    env: {
      npm_config_offline: 'true',
      npm_config_cache: mkdtempSync(join(tmpdir(), 'npm-cache-')),
    },
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toContain('Packing @mcp-fw/core, @mcp-fw/cli and @mcp-fw/typescript');
  expect(result.stdout).not.toContain('Done.');
  expect(result.stderr).toContain(
    '\ncreate-mcp-server: npm install exited with code 1.\nCause: a package is not in the npm cache and npm is offline.\n',
  );
  expect(result.stderr).toContain('ENOTCACHED');
  expect(result.stderr).toContain(
    `Fix: Go online (or unset npm's offline setting), then run npm install in ${join(cwd, 'my-server')}.\n`,
  );
}, 60_000);

it('refuses to pack a clone whose packages are not built, and says how to build them', async () => {
  const clone = join(cwd, 'clone');
  mkdirSync(join(clone, 'packages', 'core'), { recursive: true });
  const result = await packFramework(clone, join(cwd, 'vendor'), process.env);
  expect(result).toEqual({
    ok: false,
    command: 'npm pack',
    output: '',
    reason: 'the framework packages could not be packed',
    cause: 'packages/core and packages/cli are not built (no dist/)',
    fix: `Build the repository first: cd ${clone} && npm ci && npx tsc -b`,
  });
});
