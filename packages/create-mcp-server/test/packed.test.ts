import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../core/test/support/workerd.ts';
import { runCli, tempDir, type Finished } from './support/cli.ts';
import { npm, packScaffolder, projectFiles, startHttpServer } from './support/packed.ts';
import { listed as listPackages } from '../src/project-packages.ts';

// The first hour, end to end, without any @mcp-fw package on the registry: the scaffolder, run
// from this clone and from a tarball made with `npm pack`, writes each template with the
// framework packed into its vendor/ folder and installs it; the project's own test, build and
// inspect scripts pass; then an official SDK client connects the way the printed Claude
// Desktop configuration says (stdio) or at the server's URL (HTTP) and lists its tools.
// The workers template's bundle is served in real workerd instead.
// Sequential on purpose: six installs in parallel would only fight over two cores.

const TEMPLATES = [
  // basic reads its schemas from its TypeScript types: it depends on @mcp-fw/typescript too.
  {
    template: 'basic',
    transport: 'stdio',
    tools: ['greet'],
    framework: ['@mcp-fw/core', '@mcp-fw/cli', '@mcp-fw/typescript'],
  },
  {
    template: 'http',
    transport: 'http',
    tools: ['add_note', 'list_notes'],
    // Its main.ts honours --redis / REDIS_URL, which loads @mcp-fw/redis.
    framework: ['@mcp-fw/core', '@mcp-fw/cli', '@mcp-fw/redis'],
  },
  {
    template: 'full',
    transport: 'stdio',
    tools: ['search_books', 'reserve_books'],
    framework: ['@mcp-fw/core', '@mcp-fw/cli'],
  },
  // Its build bundles views/dice/ with Vite into one HTML file; a client that renders no views
  // is not offered the app-only reroll.
  {
    template: 'apps',
    transport: 'stdio',
    tools: ['roll_dice'],
    framework: ['@mcp-fw/core', '@mcp-fw/cli'],
  },
  // Its build is mcp-fw build --target workers: the module worker its wrangler.jsonc deploys,
  // served here as it is in real workerd (an SDK 1.x session, held by a Durable Object).
  {
    template: 'workers',
    transport: 'workers',
    tools: ['to_fahrenheit'],
    framework: ['@mcp-fw/core', '@mcp-fw/cli', '@mcp-fw/cloudflare'],
  },
] as const;

const work = tempDir('packed');
let scaffolderTarball: string;
/** The project files each template got from the clone, to compare with the tarball's. */
const fromCheckout: Record<string, Record<string, string>> = {};
// The third-party packages come from npm's cache when it has them, as a warm machine would.
const NPM_ENV = {
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

const succeeded = (result: Finished) => ({
  status: result.status,
  output: `${result.stdout}\n${result.stderr}`,
});

beforeAll(async () => {
  scaffolderTarball = await packScaffolder(work.dir);
}, 120_000);

// Six projects with their node_modules: removing them takes a while on a busy machine.
afterAll(() => work.remove(), 120_000);

/** Scaffolds `template` (installing it) the way each source is run; returns what it printed. */
async function scaffoldFrom(
  source: 'checkout' | 'tarball',
  template: string,
  cwd: string,
): Promise<Finished> {
  const args = [`${template}-server`, '--template', template, '--no-git', '--yes'];
  if (source === 'checkout') return runCli(args, { cwd, env: NPM_ENV });
  // One at a time: `npm exec` of one tarball shares a cache folder between the runs.
  return npm(
    ['exec', '--yes', `--package=${scaffolderTarball}`, '--', 'create-mcp-server', ...args],
    cwd,
    NPM_ENV,
  );
}

describe.each(['checkout', 'tarball'] as const)('scaffolded from the %s', (source) => {
  it.each(TEMPLATES)(
    'the $template template installs, passes its test, build and inspect scripts, and serves its tools to the official client',
    async ({ template, transport, tools, framework }) => {
      const cwd = join(work.dir, source, template);
      mkdirSync(cwd, { recursive: true });
      const dir = join(cwd, `${template}-server`);
      const scaffolded = await scaffoldFrom(source, template, cwd);
      expect(succeeded(scaffolded)).toMatchObject({ status: 0 });
      expect(scaffolded.stdout).toContain(
        source === 'checkout'
          ? `Packing ${listPackages(framework)} from`
          : `Copying ${listPackages(framework)} from this packed scaffolder`,
      );
      expect(scaffolded.stdout).toContain('\nDone.\n');

      const files = projectFiles(dir);
      const tarballs = framework
        .map((name) => `vendor/${name.slice(1).replace('/', '-')}-0.1.0.tgz`)
        .sort();
      expect(Object.keys(files).filter((path) => path.startsWith('vendor/'))).toEqual(tarballs);
      const pkg = JSON.parse(files['package.json']);
      expect(pkg.dependencies['@mcp-fw/core']).toBe('file:vendor/mcp-fw-core-0.1.0.tgz');
      expect(pkg.devDependencies['@mcp-fw/cli']).toBe('file:vendor/mcp-fw-cli-0.1.0.tgz');
      if ((framework as readonly string[]).includes('@mcp-fw/typescript'))
        expect(pkg.devDependencies['@mcp-fw/typescript']).toBe(
          'file:vendor/mcp-fw-typescript-0.1.0.tgz',
        );
      // The tarball's templates and framework are the clone's: the same project either way.
      if (source === 'checkout') fromCheckout[template] = files;
      else expect(files).toEqual(fromCheckout[template]);

      const tested = await npm(['test'], dir);
      expect(succeeded(tested)).toMatchObject({ status: 0 });
      expect(tested.stdout).toMatch(/Tests {2}\d+ passed/);

      const built = await npm(['run', 'build'], dir);
      expect(succeeded(built)).toMatchObject({ status: 0 });
      // The view bundle is one self-contained HTML file.
      if (template === 'apps')
        expect(readdirSync(join(dir, 'dist', 'views'))).toEqual(['dice.html']);
      const inspected = await npm(['run', 'inspect'], dir);
      expect(succeeded(inspected)).toMatchObject({ status: 0 });
      for (const tool of tools) expect(inspected.stdout).toContain(tool);

      const config = JSON.parse(/\n(\{\n[\s\S]*\n\})\n/.exec(scaffolded.stdout)![1]);
      const server = config.mcpServers[`${template}-server`];
      if (transport === 'stdio') {
        expect(server).toEqual({ command: 'node', args: [join(dir, 'dist', 'server.launch.cjs')] });
        // Exactly what the printed Claude Desktop configuration launches.
        expect(
          await toolsOver(
            new StdioClientTransport({
              command: server.command,
              args: server.args,
              stderr: 'ignore',
            }),
          ),
        ).toEqual(tools);
        return;
      }
      expect(server).toEqual({
        command: 'npx',
        args: ['-y', 'mcp-remote', 'http://127.0.0.1:3000/mcp'],
      });
      if (transport === 'workers') {
        expect(built.stderr).toContain('Bundled dist/worker.js into dist/worker.bundle.mjs');
        expect(built.stderr).toContain('Deploy it with: npx wrangler deploy (');
        const worker = await startWorker({
          module: join(dir, 'dist', 'worker.bundle.mjs'),
          durableObjects: [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }],
        });
        try {
          expect(
            await toolsOver(new StreamableHTTPClientTransport(new URL('/mcp', worker.origin))),
          ).toEqual(tools);
        } finally {
          await worker.stop();
        }
        return;
      }
      expect(built.stderr).toContain('Start it with: node dist/server.launch.cjs --http');
      // Every way to start it honours PORT (here 0, a free port rather than 3000).
      for (const [command, args] of [
        ['npm', ['start', '--silent']],
        [process.execPath, ['dist/main.js']],
        [process.execPath, ['dist/server.launch.cjs', '--http']],
      ] as const) {
        const started = await startHttpServer(dir, command, args, { PORT: '0' });
        try {
          expect(started.url.port).not.toBe('3000');
          expect(await toolsOver(new StreamableHTTPClientTransport(started.url))).toEqual(tools);
        } finally {
          started.stop();
        }
      }
    },
    240_000,
  );
});

it('from the tarball, --auth oauth vendors @mcp-fw/auth too, and the project passes its tests (end to end: packed-oauth.test.ts)', async () => {
  const cwd = join(work.dir, 'tarball', 'oauth');
  mkdirSync(cwd, { recursive: true });
  const scaffolded = await npm(
    [
      'exec',
      '--yes',
      `--package=${scaffolderTarball}`,
      '--',
      'create-mcp-server',
      'oauth-server',
      '--auth',
      'oauth',
      '--no-git',
      '--yes',
    ],
    cwd,
    NPM_ENV,
  );
  expect(succeeded(scaffolded)).toMatchObject({ status: 0 });
  expect(scaffolded.stdout).toMatch(
    /Copying [^\n]*@mcp-fw\/auth[^\n]* from this packed scaffolder/,
  );
  const dir = join(cwd, 'oauth-server');
  const files = projectFiles(dir);
  expect(Object.keys(files).filter((path) => path.startsWith('vendor/'))).toContain(
    'vendor/mcp-fw-auth-0.1.0.tgz',
  );
  expect(JSON.parse(files['package.json']).dependencies['@mcp-fw/auth']).toBe(
    'file:vendor/mcp-fw-auth-0.1.0.tgz',
  );
  const tested = await npm(['test'], dir);
  expect(succeeded(tested)).toMatchObject({ status: 0 });
  expect(tested.stdout).toMatch(/Test Files {2}3 passed/);
}, 240_000);

/** The tool names an official SDK 1.x client lists over `transport`. */
async function toolsOver(transport: Transport): Promise<string[]> {
  const client = new Client({ name: 'create-mcp-server-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}
