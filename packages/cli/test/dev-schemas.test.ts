import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { fixtureProject } from './support/temp-project.ts';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function listToolsOf(cwd: string, args: string[]): Promise<unknown[]> {
  const client = new Client({ name: 'mcp-fw-schemas-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...args],
      cwd,
      env: cliEnv(),
      stderr: 'pipe',
    }),
  );
  cleanups.push(() => client.close());
  return (await client.listTools()).tools;
}

describe('schemas under mcp-fw dev', () => {
  it('are those of the built server, decorator metadata included (@Arg typed only by TypeScript types)', async () => {
    const project = fixtureProject('greeter');
    cleanups.push(() => project.remove());
    const dev = await listToolsOf(project.dir, ['dev', 'src/server.ts']);

    const build = await runCli(['build'], project.dir);
    expect(build.code).toBe(0);
    expect(existsSync(project.path('dist/server.js'))).toBe(true);
    expect(existsSync(project.path('dist/greeter.d.ts'))).toBe(true);
    const production = await listToolsOf(project.dir, ['start', 'dist/server.js']);

    expect(dev).toEqual(production);
    // design:paramtypes gave the types; tsx (esbuild) emits none, and the server would refuse to start.
    expect(dev).toEqual([
      {
        name: 'greet',
        description: 'Greets someone',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string' }, times: { type: 'number' } },
          required: ['name'],
        },
      },
      {
        name: 'hold',
        description:
          'Reports progress, waits until the file exists, asks the client to confirm, then answers',
        inputSchema: {
          type: 'object',
          properties: { file: { type: 'string' } },
          required: ['file'],
        },
      },
    ]);
    const inspected = await runCli(['inspect', 'src/server.ts', '--json'], project.dir);
    expect(JSON.parse(inspected.stdout).tools).toEqual(production);
  });
});
