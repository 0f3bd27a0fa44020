import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { REPO_ROOT } from './paths.ts';
import { readTap, type TapRecord } from './wire-log.ts';

export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type OfficialClientKind =
  | '@modelcontextprotocol/client 2.x'
  | '@modelcontextprotocol/sdk 1.x';
export const OFFICIAL_CLIENTS: readonly OfficialClientKind[] = [
  '@modelcontextprotocol/client 2.x',
  '@modelcontextprotocol/sdk 1.x',
];

const TAP = join(REPO_ROOT, 'packages/core/test/support/stdio-tap.mjs');

// Recordings are read after the client closed too, so they go when the test process exits.
const tapDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of tapDirs) rmSync(dir, { recursive: true, force: true });
});

/** The calls the tests make, common to both SDK generations. */
export interface OfficialClient {
  listTools(): Promise<{ tools: any[] }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
  /** Everything that crossed the pipe so far, verbatim. */
  wire(): TapRecord[];
  /** The SDK's own client, for every other call (listResources, getPrompt, complete, ...). */
  raw: any;
}

/** How the client answers the server's requests; each also declares the matching capability. */
export interface ClientBehaviour {
  /** Extra arguments after `npm start --silent -w <workspace> --`. */
  args?: string[];
  capabilities?: Record<string, unknown>;
  onElicit?: (params: any) => unknown | Promise<unknown>;
  onSample?: (params: any) => unknown | Promise<unknown>;
  onRoots?: () => unknown | Promise<unknown>;
}

function capabilitiesOf(b: ClientBehaviour): Record<string, unknown> {
  return {
    ...(b.onElicit ? { elicitation: {} } : {}),
    ...(b.onSample ? { sampling: {} } : {}),
    ...(b.onRoots ? { roots: { listChanged: true } } : {}),
    ...b.capabilities,
  };
}

/**
 * Spawns `npm start --silent -w <workspace>` (how users launch an example) behind a recording
 * tap, and connects an official client that offers exactly `revision` at initialize.
 */
export async function connectOfficialClient(
  kind: OfficialClientKind,
  revision: string,
  workspace: string,
  behaviour: ClientBehaviour = {},
): Promise<OfficialClient> {
  const tapDir = mkdtempSync(join(tmpdir(), 'mcp-fw-tap-'));
  const tapFile = join(tapDir, 'wire.jsonl');
  tapDirs.add(tapDir);
  const env = Object.fromEntries(
    Object.entries({ ...process.env, MCP_TAP_FILE: tapFile }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  const params = {
    command: process.execPath,
    args: [
      TAP,
      'npm',
      'start',
      '--silent',
      '-w',
      workspace,
      ...(behaviour.args ? ['--', ...behaviour.args] : []),
    ],
    cwd: REPO_ROOT,
    env,
    stderr: 'pipe' as const,
  };
  const info = { name: 'mcp-fw-interop', version: '1.0.0' };
  if (kind === '@modelcontextprotocol/client 2.x') {
    const client = new ClientV2(info, {
      supportedProtocolVersions: [revision],
      capabilities: capabilitiesOf(behaviour),
    });
    const { onElicit, onSample, onRoots } = behaviour;
    if (onElicit)
      client.setRequestHandler('elicitation/create', (r: any) => onElicit(r.params) as any);
    if (onSample)
      client.setRequestHandler('sampling/createMessage', (r: any) => onSample(r.params) as any);
    if (onRoots) client.setRequestHandler('roots/list', () => onRoots() as any);
    await client.connect(new StdioV2(params));
    return {
      raw: client,
      listTools: () => client.listTools() as Promise<{ tools: any[] }>,
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
      wire: () => readTap(tapFile),
    };
  }
  // SDK 1.x always offers its latest revision; rewriting the offer on the way out makes it
  // negotiate the revision under test while every other byte stays the SDK's own.
  const transport = new StdioV1(params);
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    if ('method' in message && message.method === 'initialize' && message.params) {
      message = { ...message, params: { ...message.params, protocolVersion: revision } };
    }
    return send(message);
  };
  const client = new ClientV1(info, { capabilities: capabilitiesOf(behaviour) });
  const { onElicit, onSample, onRoots } = behaviour;
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (r) => onElicit(r.params) as any);
  if (onSample)
    client.setRequestHandler(CreateMessageRequestSchema, (r) => onSample(r.params) as any);
  if (onRoots) client.setRequestHandler(ListRootsRequestSchema, () => onRoots() as any);
  await client.connect(transport);
  return {
    raw: client,
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
    wire: () => readTap(tapFile),
  };
}

/** The protocol version the server answered at initialize, read off the wire. */
/**
 * For a test file: connects official clients as {@link connectOfficialClient} does, and closes
 * the one in use after each test, pass or fail, so no server process outlives its test.
 */
export function officialClientPerTest(): typeof connectOfficialClient {
  let current: OfficialClient | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (...args) => (current = await connectOfficialClient(...args));
}

export function negotiatedVersion(records: readonly TapRecord[]): string | undefined {
  for (const { dir, line } of records) {
    const message = JSON.parse(line);
    if (dir === 's2c' && message.result?.protocolVersion) return message.result.protocolVersion;
  }
  return undefined;
}
