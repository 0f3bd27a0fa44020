import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { namingClient, type ClientMode } from './support/official-client.ts';
import { REPO_ROOT } from './support/paths.ts';
import { listeningUrl } from '../../../test-support/listening-url.ts';

// Middleware over real transports (a child process, stdio and HTTP), in both eras, driven by the
// official client: the same chain, and one logical call across 2026-07-28 input rounds.
const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/middleware-server.ts');
const ENTRY = nodeEntry(FIXTURE);
const NODE_ARGS = ENTRY.args;
const ENV = { ...process.env, ...ENTRY.env } as Record<string, string>;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

type Mode = ClientMode;
const MODES: [Mode, string, string][] = [
  ['auto', '2026-07-28', 'modern'],
  ['legacy', '2025-11-25', 'legacy'],
];

const newClient = (mode: Mode) => namingClient(mode, 'middleware-test');

const text = (result: any) => result.content[0].text as string;

async function exercise(client: Client, version: string, era: string, transport: string) {
  expect(client.getNegotiatedProtocolVersion()).toBe(version);
  expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('HI');
  expect(await client.callTool({ name: 'forbidden', arguments: {} })).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: 'refused by middleware' }],
  });
  expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe(
    'Hello, Ada1 and Ada2!',
  );
  const seen = JSON.parse(text(await client.callTool({ name: 'seen', arguments: {} })));
  // greet asked twice: three rounds under 2026-07-28, two server→client requests under
  // 2025-11-25; the middleware saw one call either way.
  expect(seen).toEqual([
    `call echo ${era} ${transport}`,
    'done echo ok',
    `call greet ${era} ${transport}`,
    'done greet ok',
  ]);
}

describe.each(MODES)('middleware, official client in %s mode (%s)', (mode, version, era) => {
  it('runs over stdio', async () => {
    const client = newClient(mode);
    cleanups.push(() => client.close());
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: NODE_ARGS,
        env: ENV,
        cwd: REPO_ROOT,
        stderr: 'ignore',
      }),
    );
    await exercise(client, version, era, 'stdio');
  });

  it('runs over HTTP', async () => {
    const child = spawn(process.execPath, [...NODE_ARGS, '--http', '--port', '0'], {
      env: ENV,
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => void child.kill());
    const url = await listeningUrl(child);
    const client = newClient(mode);
    cleanups.push(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await exercise(client, version, era, 'http');
  });
});
