import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './support/cleanups.ts';
import { cliEnv, listeningUrl, runCli, startCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { exampleProject, type TempProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

function calculator(): TempProject {
  const project = exampleProject('calculator');
  cleanup(() => project.remove());
  return project;
}

async function add(client: Client): Promise<unknown> {
  return (await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent;
}

describe('mcp-fw build', () => {
  it('compiles the calculator example to dist/ with declarations', async () => {
    const project = calculator();
    const run = await runCli(['build'], project.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Built tsconfig\.json into dist\/ in \d+\.\d s \(TypeScript 7\.0\.2\)\.\n$/,
    );
    for (const file of ['server.js', 'server.d.ts', 'calculator.js', 'calculator.d.ts'])
      expect(existsSync(project.path(`dist/${file}`))).toBe(true);
  });

  it('fails with status 1 on a type error, with tsc’s diagnostics', async () => {
    const project = calculator();
    project.write(
      'src/server.ts',
      `${project.read('src/server.ts')}\nexport const wrong: number = 'one';\n`,
    );
    const run = await runCli(['build'], project.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(run.stderr).toBe(
      'mcp-fw: TypeScript reported errors (above), so the build is not complete.\nFix them and run mcp-fw build again.\n',
    );
  });
});

describe('mcp-fw start', () => {
  it('serves the built calculator over stdio, for a source entry too', async () => {
    const project = calculator();
    expect((await runCli(['build'], project.dir)).code).toBe(0);
    for (const entry of ['dist/server.js', 'src/server.ts']) {
      const client = new Client({ name: 'mcp-fw-start-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'start', entry],
          cwd: project.dir,
          env: cliEnv(),
          stderr: 'pipe',
        }),
      );
      cleanup(() => client.close());
      expect(client.getServerVersion()).toEqual({ name: 'calculator', version: '0.1.0' });
      expect(await add(client)).toEqual({ result: 5, expression: '2 + 3' });
    }
  });

  it('serves Streamable HTTP with --http', async () => {
    const project = calculator();
    expect((await runCli(['build'], project.dir)).code).toBe(0);
    const { child, stderr } = startCli(
      ['start', 'dist/server.js', '--http', '--port', '0'],
      project.dir,
    );
    cleanup(
      () =>
        new Promise((resolve) =>
          child.exitCode === null ? (child.once('exit', resolve), child.kill()) : resolve(null),
        ),
    );
    const client = new Client({ name: 'mcp-fw-start-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(await listeningUrl(stderr, child))),
    );
    cleanup(() => client.close());
    expect(await add(client)).toEqual({ result: 5, expression: '2 + 3' });
  });

  it('serves on PORT when --port is not given, and names a PORT that is not a port', async () => {
    const project = calculator();
    expect((await runCli(['build'], project.dir)).code).toBe(0);
    const { child, stderr } = startCli(
      ['start', 'dist/server.js', '--http'],
      project.dir,
      cliEnv({ PORT: '0' }),
    );
    cleanup(
      () =>
        new Promise((resolve) =>
          child.exitCode === null ? (child.once('exit', resolve), child.kill()) : resolve(null),
        ),
    );
    const url = new URL(await listeningUrl(stderr, child));
    expect(url.port).not.toBe('3000');
    const client = new Client({ name: 'mcp-fw-start-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    cleanup(() => client.close());
    expect(await add(client)).toEqual({ result: 5, expression: '2 + 3' });

    expect(
      await runCli(['start', 'dist/server.js', '--http'], project.dir, cliEnv({ PORT: 'eighty' })),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: PORT=eighty is not a port number.\nSet PORT to a number between 0 and 65535 (0 picks a free one), or pass --port.\n',
    });
  });

  it('says to build first when the build output is missing', async () => {
    const run = await runCli(['start', 'src/server.ts'], calculator().dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: src/server.ts has no build output (dist/server.js is missing).\n' +
        'Build the project first with mcp-fw build, or pass the built file (e.g. dist/server.js).\n',
    });
  });
});
