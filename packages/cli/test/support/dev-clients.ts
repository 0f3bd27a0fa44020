import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { patience } from '../../../../test-support/patience.ts';
import { readTap, type TapRecord } from '../../../core/test/support/wire-log.ts';
import { cliEnv } from './cli-process.ts';
import { BIN, TAP } from './paths.ts';

/** The official clients the dev tests drive `mcp-fw dev` with. */
export type DevClientKind =
  | '@modelcontextprotocol/sdk 1.x (2025-11-25)'
  | '@modelcontextprotocol/client 2.x auto (2026-07-28)';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** One client connected over stdio to `mcp-fw dev`, with what it received. */
export interface DevClient {
  readonly version: string | undefined;
  /** `notifications/tools/list_changed` received so far. */
  readonly toolListChanges: () => number;
  /** The data of every `notifications/message` received. */
  readonly logs: string[];
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (p: Progress) => void,
  ): Promise<any>;
  toolNames(): Promise<string[]>;
  listTools(): Promise<any[]>;
  /** Follows the resource at `uri`: `resources/subscribe`, or a listen stream (2026-07-28). */
  subscribe(uri: string): Promise<void>;
  /** What `mcp-fw dev` wrote to stderr so far. */
  stderr(): string;
  /** Every line that crossed the pipe. */
  wire(): TapRecord[];
  close(): Promise<void>;
}

const INFO = { name: 'mcp-fw-dev-test', version: '1.0.0' };
/**
 * The clients' request timeout (60 s by default, fixed), stretched by the load: the first
 * request waits for `mcp-fw dev` and its child to start, later ones for a reload.
 */
const wait = () => ({ timeout: patience(60_000) });

/**
 * Launches `mcp-fw dev <args>` in `cwd` behind the recording tap and connects `kind`. The
 * client accepts elicitations with `{ ok: true }`; 2026-07-28 clients open a listen stream for
 * tool list changes (legacy clients receive them unsolicited).
 */
export async function connectDevClient(
  kind: DevClientKind,
  cwd: string,
  args: string[],
): Promise<DevClient> {
  const tapFile = join(mkdtempSync(join(tmpdir(), 'mcp-fw-dev-tap-')), 'wire.jsonl');
  const params = {
    command: process.execPath,
    args: [TAP, process.execPath, BIN, 'dev', ...args],
    cwd,
    env: cliEnv({ MCP_TAP_FILE: tapFile }),
    stderr: 'pipe' as const,
  };
  let changes = 0;
  let stderr = '';
  const logs: string[] = [];
  const collect = (stream: import('node:stream').Stream | null) =>
    stream?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (kind === '@modelcontextprotocol/sdk 1.x (2025-11-25)') {
    const transport = new StdioV1(params);
    collect(transport.stderr);
    const client = new ClientV1(INFO, { capabilities: { elicitation: {} } });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logs.push(String(n.params.data)),
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { ok: true },
    }));
    await client.connect(transport, wait());
    return {
      version: negotiated(readTap(tapFile)),
      toolListChanges: () => changes,
      logs,
      callTool: (name, args, onprogress) =>
        client.callTool({ name, arguments: args }, undefined, { ...wait(), onprogress }),
      toolNames: async () => (await client.listTools(undefined, wait())).tools.map((t) => t.name),
      listTools: async () => (await client.listTools(undefined, wait())).tools,
      subscribe: async (uri) => void (await client.subscribeResource({ uri }, wait())),
      stderr: () => stderr,
      wire: () => readTap(tapFile),
      close: () => client.close(),
    };
  }
  const transport = new StdioV2(params);
  collect(transport.stderr);
  const client = new ClientV2(INFO, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: 'auto' },
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
  client.setNotificationHandler(
    'notifications/message',
    (n) => void logs.push(String(n.params.data)),
  );
  client.setRequestHandler('elicitation/create', () => ({
    action: 'accept',
    content: { ok: true },
  }));
  await client.connect(transport, wait());
  const subscriptions = [await client.listen({ toolsListChanged: true }, wait())];
  return {
    version: client.getNegotiatedProtocolVersion(),
    toolListChanges: () => changes,
    logs,
    callTool: (name, args, onprogress) =>
      client.callTool({ name, arguments: args }, { ...wait(), onprogress }),
    toolNames: async () => (await client.listTools(undefined, wait())).tools.map((t) => t.name),
    listTools: async () => (await client.listTools(undefined, wait())).tools,
    subscribe: async (uri) => {
      subscriptions.push(await client.listen({ resourceSubscriptions: [uri] }, wait()));
    },
    stderr: () => stderr,
    wire: () => readTap(tapFile),
    close: async () => {
      for (const subscription of subscriptions) await subscription.close();
      await client.close();
    },
  };
}

/** The version the server answered at initialize, read off the wire. */
function negotiated(records: readonly TapRecord[]): string | undefined {
  for (const { dir, line } of records) {
    const message = JSON.parse(line);
    if (dir === 's2c' && message.result?.protocolVersion) return message.result.protocolVersion;
  }
  return undefined;
}
