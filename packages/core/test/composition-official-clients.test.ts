import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { patience } from '../../../test-support/patience.ts';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { mcpSchema } from './support/mcp-schema.ts';
import { connectRecording, type SeenMessage } from './support/official-client.ts';
import { REPO_ROOT } from './support/paths.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { checkServerLines, readTap } from './support/wire-log.ts';
import { listeningUrl } from '../../../test-support/listening-url.ts';

// The official clients drive a composed server (a mounted child with a transformed tool) as
// separate processes over stdio and HTTP: SDK 1.x at 2025-11-25, client 2.x at 2026-07-28.
const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/composed-server.ts');
const TAP = join(REPO_ROOT, 'packages/core/test/support/stdio-tap.mjs');
// The fixture bundled over the packages' dist (test-support/node-entry.ts): it starts in about a
// quarter of the CPU time `node --import tsx` takes.
const ENTRY = nodeEntry(FIXTURE);
const NODE_ARGS = ENTRY.args;
const ENV = { ...process.env, ...ENTRY.env } as Record<string, string>;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** What the tests need of either SDK generation. */
interface Peer {
  listTools(): Promise<{ tools: any[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  raw: any;
  changes: string[];
  /** Under 2026-07-28, opens the `listen` stream for tool list changes. */
  listen?: () => Promise<{ close(): Promise<void> }>;
}

function v1(): Peer & { client: ClientV1 } {
  const client = new ClientV1(
    { name: 'composition-v1', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name: 'Oslo' },
  }));
  const changes: string[] = [];
  client.setNotificationHandler(
    ToolListChangedNotificationSchema,
    async () => void changes.push('tools'),
  );
  return {
    client,
    raw: client,
    changes,
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
  };
}

function v2(): Peer & { client: ClientV2 } {
  const client = new ClientV2(
    { name: 'composition-v2', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' as const } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Oslo' },
  }));
  const changes: string[] = [];
  client.setNotificationHandler(
    'notifications/tools/list_changed',
    () => void changes.push('tools'),
  );
  return {
    client,
    raw: client,
    changes,
    listTools: () => client.listTools() as Promise<{ tools: any[] }>,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listen: () => client.listen({ toolsListChanged: true }),
  };
}

/** The same session for both eras and both transports. */
async function exercise(peer: Peer) {
  const subscription = await peer.listen?.();
  const tools = (await peer.listTools()).tools;
  expect(tools.map((t) => t.name)).toEqual(['search', 'forecast', 'weather_ask', 'weather_more']);
  const forecast = tools.find((t) => t.name === 'forecast');
  expect(forecast.description).toBe('The forecast for a city, in metric units');
  expect(forecast.inputSchema.properties).toEqual({ location: { type: 'string' } });
  expect(forecast.inputSchema.required).toEqual(['location']);
  const result = await peer.callTool('forecast', { location: 'Paris' });
  expect(result.structuredContent).toEqual({ city: 'Paris', units: 'metric' });
  const bad = await peer.callTool('forecast', { city: 'Paris' });
  expect(bad.isError).toBe(true);
  expect(bad.content[0].text).toMatch(/location/);
  expect((await peer.callTool('weather_ask', {})).content).toEqual([
    { type: 'text', text: 'asked: Oslo' },
  ]);
  expect(
    (await peer.raw.getPrompt({ name: 'weather_outlook', arguments: { city: 'Oslo' } })).messages,
  ).toEqual([{ role: 'user', content: { type: 'text', text: 'What is the weather in Oslo?' } }]);
  expect((await peer.raw.readResource({ uri: 'weather://stations' })).contents).toEqual([
    { uri: 'weather://stations', mimeType: 'text/plain', text: 'Paris, Oslo' },
  ]);
  await peer.callTool('weather_more', {});
  // The change arrives on its own stream: waited for, up to a deadline stretched by the load
  // (a fixed 2 s of polling was short for a server process on a busy machine).
  await vi.waitFor(() => expect(peer.changes).toEqual(['tools']), {
    timeout: patience(2_000),
    interval: 10,
  });
  expect((await peer.listTools()).tools.map((t) => t.name)).toContain('weather_alerts');
  expect((await peer.callTool('weather_alerts', {})).content[0].text).toBe('no alerts');
  await subscription?.close();
}

const KINDS = [
  ['@modelcontextprotocol/sdk 1.x', '2025-11-25', v1],
  ['@modelcontextprotocol/client 2.x', '2026-07-28', v2],
] as const;

describe.each(KINDS)('%s (%s) through a mount and a transform', (_kind, version, make) => {
  it('drives the composed server over stdio; every frame validates against the revision in use', async () => {
    const tapDir = mkdtempSync(join(tmpdir(), 'composed-'));
    cleanups.push(() => rmSync(tapDir, { recursive: true, force: true }));
    const tapFile = join(tapDir, 'wire.jsonl');
    const peer = make();
    cleanups.push(() => peer.client.close());
    const params = {
      command: process.execPath,
      args: [TAP, process.execPath, ...NODE_ARGS],
      env: { ...ENV, MCP_TAP_FILE: tapFile },
      cwd: REPO_ROOT,
    };
    await (peer.client as any).connect(
      peer.client instanceof ClientV1 ? new StdioV1(params) : new StdioV2(params),
    );
    await exercise(peer);
    await peer.client.close();
    const wire = readTap(tapFile);
    expect(wire.filter((r) => r.dir === 's2c').length).toBeGreaterThan(10);
    expect(checkServerLines(wire, version)).toEqual([]);
  });

  it('drives the composed server over HTTP; every message validates against the revision in use', async () => {
    const child = spawn(process.execPath, [...NODE_ARGS, '--http', '--port', '0'], {
      env: ENV,
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => void child.kill());
    const url = new URL(await listeningUrl(child));
    const peer = make();
    cleanups.push(() => peer.client.close());
    const seen: SeenMessage[] = await connectRecording(
      peer.client as any,
      (peer.client instanceof ClientV1 ? new HttpV1(url) : new HttpV2(url)) as any,
    );
    await exercise(peer);
    const schema = mcpSchema(version);
    expect(seen.length).toBeGreaterThan(8);
    expect(
      seen.flatMap(({ message, method }) =>
        schema.check(message, 'result' in message ? method : undefined),
      ),
    ).toEqual([]);
  });
});
