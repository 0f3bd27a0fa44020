import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, listeningUrl, runCli, startCli } from './support/cli-process.ts';
import { exampleProject } from './support/temp-project.ts';

// Without an entry, inspect, call and dev serve the project in the current directory (its
// src/server.ts, as create-mcp-server lays it out); elsewhere they say what to do.
const calculator = exampleProject('calculator');
const empty = mkdtempSync(join(tmpdir(), 'mcp-fw-cli-empty-'));
afterAll(() => {
  calculator.remove();
  rmSync(empty, { recursive: true, force: true });
});

const NO_ENTRY = (command: string) => ({
  code: 1,
  stdout: '',
  stderr:
    `mcp-fw: No entry was given, and there is no src/server.ts in ${empty}.\n` +
    "Run the command in your project's directory, or pass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).\n",
  command,
});

describe('the project in the current directory', () => {
  it('is what mcp-fw inspect lists', async () => {
    const run = await runCli(['inspect', '--json'], calculator.dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual([
      'add',
      'subtract',
      'multiply',
      'divide',
    ]);
  });

  it('is what mcp-fw call runs, with the tool as the first word', async () => {
    expect(await runCli(['call', 'add', 'a=1', 'b=2'], calculator.dir)).toEqual({
      code: 0,
      stdout: '{"result":3,"expression":"1 + 2"}\n',
      stderr: '',
    });
    expect(await runCli(['call', 'divide', '--json', '{"a": 6, "b": 3}'], calculator.dir)).toEqual({
      code: 0,
      stdout: '{"result":2,"expression":"6 / 3"}\n',
      stderr: '',
    });
  });

  it('is what mcp-fw dev serves (here over HTTP, on PORT)', async () => {
    const { child, stderr } = startCli(['dev', '--http'], calculator.dir, cliEnv({ PORT: '0' }));
    try {
      const url = new URL(await listeningUrl(stderr, child));
      expect(url.port).not.toBe('3000');
      const client = new Client({ name: 'mcp-fw-default-entry-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'add',
        'subtract',
        'multiply',
        'divide',
      ]);
      await client.close();
    } finally {
      child.kill();
    }
  });

  it('is missing where there is no src/server.ts, and the error says what to do', async () => {
    for (const args of [
      ['inspect'],
      ['call', 'add', 'a=1'],
      ['dev'],
      ['install', 'claude', '--print'],
    ]) {
      const { command, ...expected } = NO_ENTRY(args[0]);
      expect({ ...(await runCli(args, empty)), command }).toEqual({ ...expected, command });
    }
  });

  it('needs a tool name for mcp-fw call', async () => {
    expect(await runCli(['call'], calculator.dir)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mcp-fw: No tool was named.\nName the tool to call: mcp-fw call [entry] <tool> name=value (mcp-fw inspect lists the tools).\n',
    });
    expect(await runCli(['call', 'src/server.ts'], calculator.dir)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mcp-fw: No tool was named after the entry src/server.ts.\nName the tool to call: mcp-fw call src/server.ts <tool> name=value (mcp-fw inspect lists the tools).\n',
    });
    expect(await runCli(['call', 'a=1'], calculator.dir)).toMatchObject({
      code: 1,
      stderr:
        'mcp-fw: "a=1" is an argument, but no tool was named.\nName the tool first: mcp-fw call [entry] <tool> name=value.\n',
    });
  });
});
