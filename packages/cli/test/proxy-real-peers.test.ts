import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
} from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';

// Third-party stdio servers from npm (server-filesystem, server-everything) behind `mcp-fw proxy
// --http`, used by the official clients: SDK v1 (a legacy session) and client v2.

const NPM = join(REPO_ROOT, 'node_modules/@modelcontextprotocol');
let dir: string;
let url: string;
let stop: () => Promise<unknown>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-fw-proxy-peers-'));
  const files = join(dir, 'files');
  mkdirSync(files);
  writeFileSync(join(files, 'hello.txt'), 'hello from disk\n');
  writeFileSync(join(files, 'two.txt'), 'one\ntwo\n');
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        files: {
          command: process.execPath,
          args: [join(NPM, 'server-filesystem/dist/index.js'), files],
        },
        // The acceptance row: a hidden argument and a renamed tool, set in the gateway file.
        shaped: {
          command: process.execPath,
          args: [join(NPM, 'server-filesystem/dist/index.js'), files],
          tools: { read_text_file: { name: 'read', args: { tail: { hide: true } } } },
          include: ['read_text_file', 'list_directory'],
        },
        everything: {
          command: process.execPath,
          args: [join(NPM, 'server-everything/dist/index.js')],
        },
      },
    }),
  );
  const run = spawnCli(['proxy', config, '--http', '--port', '0'], dir);
  stop = async () => {
    run.child.kill('SIGTERM');
    await run.exited;
  };
  await vi.waitFor(() => expect(run.stderr()).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/mcp/), {
    timeout: 20_000,
    interval: 100,
  });
  url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(run.stderr())![1];
}, 30_000);

afterAll(async () => {
  await stop?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('third-party servers behind mcp-fw proxy', () => {
  it('SDK v1 reads a file of server-filesystem and echoes with server-everything through the gateway', async () => {
    const client = new Client1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new Transport1(new URL(url)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['files_read_text_file', 'everything_echo']));
      const read = await client.callTool({
        name: 'files_read_text_file',
        arguments: { path: join(dir, 'files', 'hello.txt') },
      });
      expect(read.content).toEqual([{ type: 'text', text: 'hello from disk\n' }]);
      const echo = await client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
      const outside = await client.callTool({
        name: 'files_read_text_file',
        arguments: { path: '/etc/passwd' },
      });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("SDK v1's elicitation answers server-everything's question through the proxy", async () => {
    const client = new Client1(
      { name: 'sdk-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new Transport1(new URL(url)));
    try {
      const result = await client.callTool({
        name: 'everything_trigger-elicitation-request',
        arguments: {},
      });
      expect(asked).toHaveLength(1);
      expect(JSON.stringify(result.content)).toContain('Name: Ada');
    } finally {
      await client.close();
    }
  });

  it('client v2 lists a directory of server-filesystem and reads a resource of server-everything', async () => {
    const client = new Client2({ name: 'client-v2', version: '1.0.0' });
    await client.connect(new Transport2(new URL(url)));
    try {
      const listed = await client.callTool({
        name: 'files_list_directory',
        arguments: { path: join(dir, 'files') },
      });
      expect(JSON.stringify(listed.content)).toContain('hello.txt');
      const resources = (await client.listResources()).resources;
      expect(resources.length).toBeGreaterThan(0);
      const read = await client.readResource({ uri: resources[0].uri });
      expect(read.contents[0].uri).toBe(resources[0].uri);
    } finally {
      await client.close();
    }
  });

  it('the official clients use a server-filesystem proxied through mcp-fw proxy with a hidden argument and a renamed tool', async () => {
    const hello = join(dir, 'files', 'hello.txt');
    const v1 = new Client1({ name: 'sdk-v1', version: '1.0.0' });
    await v1.connect(new Transport1(new URL(url)));
    const v2 = new Client2({ name: 'client-v2', version: '1.0.0' });
    await v2.connect(new Transport2(new URL(url)));
    try {
      for (const client of [v1, v2] as const) {
        const tools = (await client.listTools()).tools;
        const shaped = tools.filter((t) => t.name.startsWith('shaped_')).map((t) => t.name);
        expect(shaped.sort()).toEqual(['shaped_list_directory', 'shaped_read']);
        const read = tools.find((t) => t.name === 'shaped_read');
        expect(Object.keys(read?.inputSchema.properties ?? {})).not.toContain('tail');
        expect(Object.keys(read?.inputSchema.properties ?? {})).toContain('path');
        const result = await client.callTool({ name: 'shaped_read', arguments: { path: hello } });
        expect(result.content).toEqual([{ type: 'text', text: 'hello from disk\n' }]);
        // The hidden argument cannot be set: a `tail` sent anyway never reaches the upstream.
        const sneaky = await client.callTool({
          name: 'shaped_read',
          arguments: { path: join(dir, 'files', 'two.txt'), tail: 1 },
        });
        expect(sneaky.content).toEqual([{ type: 'text', text: 'one\ntwo\n' }]);
      }
    } finally {
      await v1.close();
      await v2.close();
    }
  });
});
