import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, tree, type Finished } from './support/cli.ts';
import { FRAMEWORK_PACKAGES, npm, pack, startHttpServer, useTarballs } from './support/packed.ts';

// The first-run experience, end to end, from the published artifacts: the packed scaffolder
// writes each template, the project installs against the packed framework, and its own test,
// build and inspect scripts pass; then an official SDK client connects the way the printed
// Claude Desktop configuration says (stdio) or at the server's URL (HTTP) and lists its tools.

const TEMPLATES = [
  { template: 'basic', transport: 'stdio', tools: ['greet'] },
  { template: 'http', transport: 'http', tools: ['add_note', 'list_notes'] },
  { template: 'full', transport: 'stdio', tools: ['search_books', 'reserve_books'] },
] as const;

const work = tempDir('packed');
let tarballs: Record<string, string>;
/** What the packed scaffolder printed, per template. */
const printed: Record<string, string> = {};

const succeeded = (result: Finished) => ({ status: result.status, output: `${result.stdout}\n${result.stderr}` });

beforeAll(async () => {
  tarballs = await pack(['packages/create-mcp-server', ...Object.values(FRAMEWORK_PACKAGES)], work.dir);
  // One at a time: `npm exec` of one tarball shares a cache folder between the runs.
  for (const { template } of TEMPLATES) {
    mkdirSync(join(work.dir, template));
    const result = await npm(
      ['exec', '--yes', `--package=${tarballs['create-mcp-server']}`, '--', 'create-mcp-server', `${template}-server`, '--template', template, '--no-install', '--no-git', '--yes'],
      join(work.dir, template),
    );
    expect(succeeded(result)).toMatchObject({ status: 0 });
    printed[template] = result.stdout;
  }
}, 240_000);

afterAll(() => work.remove());

describe.concurrent.each(TEMPLATES)('the packed $template template', ({ template, transport, tools }) => {
  it('installs, passes its test, build and inspect scripts, and serves its tools to the official client', async () => {
    const dir = join(work.dir, template, `${template}-server`);
    const config = JSON.parse(/\n(\{\n[\s\S]*\n\})\n/.exec(printed[template])![1]);
    const server = config.mcpServers[`${template}-server`];
    expect(server).toEqual(
      transport === 'stdio'
        ? { command: 'node', args: [join(dir, 'dist', 'server.launch.cjs')] }
        : { command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:3000/mcp'] },
    );

    // The packed templates are the repository's: same files as the scaffolder run from source.
    const fromSource = join(work.dir, `${template}-from-source`);
    mkdirSync(fromSource);
    const sourceRun = await runCli([`${template}-server`, '--template', template, '--no-install', '--no-git', '--yes'], { cwd: fromSource });
    expect(succeeded(sourceRun)).toMatchObject({ status: 0 });
    expect(tree(dir)).toEqual(tree(join(fromSource, `${template}-server`)));

    useTarballs(dir, tarballs);
    const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
    expect(succeeded(installed)).toMatchObject({ status: 0 });

    const tested = await npm(['test'], dir);
    expect(succeeded(tested)).toMatchObject({ status: 0 });
    expect(tested.stdout).toMatch(/Tests {2}\d+ passed/);

    expect(succeeded(await npm(['run', 'build'], dir))).toMatchObject({ status: 0 });
    const inspected = await npm(['run', 'inspect'], dir);
    expect(succeeded(inspected)).toMatchObject({ status: 0 });
    for (const tool of tools) expect(inspected.stdout).toContain(tool);

    if (transport === 'stdio') {
      // Exactly what the printed Claude Desktop configuration launches.
      expect(await toolsOver(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }))).toEqual(tools);
      return;
    }
    // `npm start` as the next steps say (on a free port rather than 3000), then `node dist/main.js`.
    for (const [command, args, env] of [
      ['npm', ['start', '--silent', '--', '--port', '0'], {}],
      [process.execPath, ['dist/main.js'], { PORT: '0' }],
    ] as const) {
      const started = await startHttpServer(dir, command, args, env);
      try {
        expect(await toolsOver(new StreamableHTTPClientTransport(started.url))).toEqual(tools);
      } finally {
        started.stop();
      }
    }
  }, 300_000);
});

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
