import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { exampleProject, type TempProject } from './support/temp-project.ts';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const OTHER = { command: 'uvx', args: ['some-python-server'], env: { TOKEN: 'x' } };

function calculator(): TempProject {
  const project = exampleProject('calculator');
  cleanups.push(() => project.remove());
  return project;
}

describe('mcp-fw install', () => {
  it.each([
    ['claude', 'Claude Desktop', 'Restart Claude Desktop to load it.'],
    ['cursor', 'Cursor', 'Cursor picks it up in Settings → MCP.'],
  ])(
    'adds the server to a %s config that holds another server, and the entry runs',
    async (client, title, next) => {
      const project = calculator();
      const config = project.path('client-config.json');
      project.write(
        'client-config.json',
        JSON.stringify({ mcpServers: { other: OTHER }, globalShortcut: 'Ctrl+Space' }),
      );
      const run = await runCli(
        ['install', client, 'src/server.ts', '--config', config, '--env', 'LOG=debug'],
        project.dir,
      );
      expect(run).toEqual({
        code: 0,
        stdout:
          `Added example-calculator in ${config} (${title}): mcp-fw dev src/server.ts\n` +
          'That is the dev runner on your sources: no built launcher (dist/server.launch.cjs) was found. For the production launcher, run mcp-fw build --bundle (npm run build), then install again.\n' +
          `${next}\n`,
        stderr: '',
      });
      const entry = {
        command: process.execPath,
        args: [BIN, 'dev', project.path('src/server.ts')],
        env: { LOG: 'debug' },
      };
      expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
        mcpServers: { other: OTHER, 'example-calculator': entry },
        globalShortcut: 'Ctrl+Space',
      });

      // The entry is what the client will launch: run it as the client would, from anywhere.
      const mcp = new Client({ name: 'mcp-fw-install-test', version: '1.0.0' });
      await mcp.connect(
        new StdioClientTransport({ ...entry, env: cliEnv(entry.env), cwd: '/', stderr: 'pipe' }),
      );
      cleanups.push(() => mcp.close());
      expect(
        (await mcp.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).structuredContent,
      ).toEqual({ result: 2, expression: '1 + 1' });
    },
  );

  it('writes the VS Code shape (servers, type stdio) and replaces an entry of the same name', async () => {
    const project = calculator();
    expect((await runCli(['build'], project.dir)).code).toBe(0);
    const config = project.path('.vscode/mcp.json');
    project.write(
      '.vscode/mcp.json',
      JSON.stringify({
        servers: {
          other: { type: 'stdio', ...OTHER },
          calc: { type: 'stdio', command: 'old', args: [] },
        },
      }),
    );
    const run = await runCli(
      [
        'install',
        'vscode',
        'dist/server.js',
        '--name',
        'calc',
        '--mode',
        'start',
        '--config',
        config,
      ],
      project.dir,
    );
    expect(run.stdout).toBe(
      `Updated calc in ${config} (VS Code): mcp-fw start dist/server.js\nStart it from the MCP: List Servers command in VS Code.\n`,
    );
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      servers: {
        other: { type: 'stdio', ...OTHER },
        calc: {
          type: 'stdio',
          command: process.execPath,
          args: [BIN, 'start', project.path('dist/server.js')],
        },
      },
    });
  });

  it('runs the launcher of mcp-fw build --bundle with node itself', async () => {
    const project = calculator();
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    const config = project.path('client-config.json');
    const run = await runCli(
      ['install', 'claude', 'dist/server.launch.cjs', '--config', config],
      project.dir,
    );
    expect(run.stdout).toBe(
      `Added example-calculator in ${config} (Claude Desktop): node dist/server.launch.cjs\nRestart Claude Desktop to load it.\n`,
    );
    const entry = { command: process.execPath, args: [project.path('dist/server.launch.cjs')] };
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      mcpServers: { 'example-calculator': entry },
    });
    const mcp = new Client({ name: 'mcp-fw-install-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({ ...entry, env: cliEnv(), cwd: '/', stderr: 'pipe' }),
    );
    cleanups.push(() => mcp.close());
    expect(
      (await mcp.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).structuredContent,
    ).toEqual({ result: 2, expression: '1 + 1' });
  });

  it('installs the built launcher for a source entry (or none) once it is built, and says which it wrote', async () => {
    const project = calculator();
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    const config = project.path('client-config.json');
    for (const args of [['src/server.ts'], []]) {
      const run = await runCli(['install', 'claude', ...args, '--config', config], project.dir);
      expect(run.stdout).toMatch(
        /^(Added|Updated) example-calculator in .*client-config\.json \(Claude Desktop\): node dist\/server\.launch\.cjs\n/,
      );
      expect(run.stdout).toContain(
        'That is the production launcher mcp-fw build --bundle wrote for src/server.ts: rebuild after changes (--mode dev installs the hot-reloading dev runner instead).\n',
      );
      expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
        mcpServers: {
          'example-calculator': {
            command: process.execPath,
            args: [project.path('dist/server.launch.cjs')],
          },
        },
      });
    }
    // --mode still chooses the CLI.
    const dev = await runCli(
      ['install', 'claude', 'src/server.ts', '--mode', 'dev', '--config', config],
      project.dir,
    );
    expect(dev.stdout).toBe(
      `Updated example-calculator in ${config} (Claude Desktop): mcp-fw dev src/server.ts\nRestart Claude Desktop to load it.\n`,
    );
  });

  it('keeps the env variables an earlier install wrote, and says so', async () => {
    const project = calculator();
    const config = project.path('client-config.json');
    expect(
      (
        await runCli(
          [
            'install',
            'cursor',
            'src/server.ts',
            '--config',
            config,
            '--env',
            'API_KEY=secret',
            '--env',
            'LOG=info',
          ],
          project.dir,
        )
      ).code,
    ).toBe(0);
    const again = await runCli(
      ['install', 'cursor', 'src/server.ts', '--config', config, '--env', 'LOG=debug'],
      project.dir,
    );
    expect(again.stdout).toContain(
      "Kept API_KEY from the earlier entry's env (--env API_KEY=… replaces it).\n",
    );
    expect(JSON.parse(readFileSync(config, 'utf8')).mcpServers['example-calculator'].env).toEqual({
      API_KEY: 'secret',
      LOG: 'debug',
    });
    const plain = await runCli(
      ['install', 'cursor', 'src/server.ts', '--config', config],
      project.dir,
    );
    expect(plain.stdout).toContain(
      "Kept API_KEY, LOG from the earlier entry's env (--env API_KEY=… replaces it).\n",
    );
    expect(JSON.parse(readFileSync(config, 'utf8')).mcpServers['example-calculator'].env).toEqual({
      API_KEY: 'secret',
      LOG: 'debug',
    });
  });

  it('prints the entry without writing with --print', async () => {
    const project = calculator();
    const run = await runCli(['install', 'claude', 'src/server.ts', '--print'], project.dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: {
        'example-calculator': {
          command: process.execPath,
          args: [BIN, 'dev', project.path('src/server.ts')],
        },
      },
    });
  });

  it('leaves a config that is not plain JSON alone and says what to do', async () => {
    const project = calculator();
    const config = project.path('mcp.json');
    const original = '{\n  // my servers\n  "mcpServers": {}\n}\n';
    project.write('mcp.json', original);
    const run = await runCli(
      ['install', 'cursor', 'src/server.ts', '--config', config],
      project.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcp-fw: .*mcp\.json is not plain JSON \(it has comments, which mcp-fw cannot keep\): .*\.\nFix the file, or run the command again with --print and add the entry by hand\.\n$/,
    );
    expect(readFileSync(config, 'utf8')).toBe(original);
  });
});
