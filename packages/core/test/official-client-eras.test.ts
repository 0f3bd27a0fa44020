import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { patience } from '../../../test-support/patience.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mcpSchema } from './support/mcp-schema.ts';
import { connectRecording, namingClient, type ClientMode } from './support/official-client.ts';
import { REPO_ROOT } from './support/paths.ts';
import { checkServerLines, readTap } from './support/wire-log.ts';
import { listeningUrl } from '../../../test-support/listening-url.ts';

const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/eras-server.ts');
const TAP = join(REPO_ROOT, 'packages/core/test/support/stdio-tap.mjs');
const ENTRY = nodeEntry(FIXTURE);
const NODE_ARGS = ENTRY.args;
const ENV = { ...process.env, ...ENTRY.env } as Record<string, string>;

type Mode = ClientMode;
const MODES: [Mode, string][] = [
  ['auto', '2026-07-28'],
  ['legacy', '2025-11-25'],
];

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const newClient = (mode: Mode) => namingClient(mode, 'eras-test');

/** Everything the test drives, the same for both eras and both transports. */
async function exercise(client: Client, version: string) {
  expect(client.getNegotiatedProtocolVersion()).toBe(version);
  const changes: string[] = [];
  client.setNotificationHandler(
    'notifications/tools/list_changed',
    () => void changes.push('tools'),
  );
  const subscription =
    version === '2026-07-28' ? await client.listen({ toolsListChanged: true }) : undefined;

  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'greet', 'bump']);
  expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
    content: [{ type: 'text', text: 'hi' }],
  });
  expect(await client.callTool({ name: 'greet', arguments: { times: 2 } })).toMatchObject({
    content: [{ type: 'text', text: 'Hello, Ada1 and Ada2!' }],
  });
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['eras://readme']);
  expect((await client.readResource({ uri: 'eras://readme' })).contents).toEqual([
    { uri: 'eras://readme', mimeType: 'text/plain', text: 'Both eras, one class.' },
  ]);
  expect(
    (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
  ).toEqual(['eras://items/{id}']);
  expect(
    (await client.getPrompt({ name: 'hello', arguments: { language: 'french' } })).messages,
  ).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello in french.' } }]);
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: 'hello' },
    argument: { name: 'language', value: 'e' },
  });
  expect(completion.completion.values).toEqual(['english', 'esperanto']);
  const ids = await client.complete({
    ref: { type: 'ref/resource', uri: 'eras://items/{id}' },
    argument: { name: 'id', value: '1' },
  });
  expect(ids.completion.values).toEqual(['1', '12']);
  if (version !== '2026-07-28') await client.subscribeResource({ uri: 'eras://readme' });

  await client.callTool({ name: 'bump', arguments: {} });
  // The change arrives on its own stream: waited for, up to a deadline stretched by the load
  // (a fixed 2 s of polling was short for a server process on a busy machine).
  await vi.waitFor(() => expect(changes).toEqual(['tools']), {
    timeout: patience(2_000),
    interval: 10,
  });
  await subscription?.close();
}

describe.each(MODES)('@modelcontextprotocol/client 2.x, %s mode (%s)', (mode, version) => {
  it('drives the server over stdio; every frame validates against the revision in use', async () => {
    const tapDir = mkdtempSync(join(tmpdir(), 'eras-'));
    cleanups.push(() => rmSync(tapDir, { recursive: true, force: true }));
    const tapFile = join(tapDir, 'wire.jsonl');
    const client = newClient(mode);
    cleanups.push(() => client.close());
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [TAP, process.execPath, ...NODE_ARGS],
        env: { ...ENV, MCP_TAP_FILE: tapFile },
        cwd: REPO_ROOT,
      }),
    );
    await exercise(client, version);
    await client.close();
    const wire = readTap(tapFile);
    expect(wire.filter((r) => r.dir === 's2c').length).toBeGreaterThan(10);
    expect(checkServerLines(wire, version)).toEqual([]);
  });

  it('drives the server over HTTP; every message validates against the revision in use', async () => {
    const child = spawn(process.execPath, [...NODE_ARGS, '--http', '--port', '0'], {
      env: ENV,
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => void child.kill());
    const url = await listeningUrl(child);
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = newClient(mode);
    cleanups.push(() => client.close());
    const seen = await connectRecording(client, transport);
    await exercise(client, version);
    const schema = mcpSchema(version);
    expect(seen.length).toBeGreaterThan(10);
    expect(
      seen.flatMap(({ message, method }) =>
        schema.check(message, 'result' in message ? method : undefined),
      ),
    ).toEqual([]);
  });
});
