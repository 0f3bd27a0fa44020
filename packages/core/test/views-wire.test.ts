import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from '@mcp-fw/core/node';
import { viewsServer } from './fixtures/views-orders.mjs';
import { mcpSchema } from './support/mcp-schema.ts';
import { REPO_ROOT } from './support/paths.ts';
import { checkServerLines, readTap } from './support/wire-log.ts';

// MCP Apps over the wire: SDK v1 speaks 2025-11-25, client v2 (auto) 2026-07-28; both over
// stdio (a spawned server) and HTTP (in process), every server message validated against the
// revision's official schema.

const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/views-server.mjs');
const TAP = join(REPO_ROOT, 'packages/core/test/support/stdio-tap.mjs');
const NODE_ARGS = [FIXTURE];
const ENV = process.env as Record<string, string>;
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const CSP = {
  connectDomains: ['https://api.example.com'],
  resourceDomains: ['https://cdn.example.com'],
};

type Sdk = 'sdk v1 (2025-11-25)' | 'client v2 (2026-07-28)';
const VERSION: Record<Sdk, string> = {
  'sdk v1 (2025-11-25)': '2025-11-25',
  'client v2 (2026-07-28)': '2026-07-28',
};

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function newClient(sdk: Sdk, views: boolean): any {
  const capabilities = views ? { extensions: UI } : {};
  if (sdk === 'sdk v1 (2025-11-25)')
    return new ClientV1({ name: 'views-test', version: '1.0.0' }, { capabilities });
  return new ClientV2(
    { name: 'views-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: 'auto' as const } },
  );
}

/** Connects over stdio through the tap; returns the client and the recorded wire's problems. */
async function overStdio(sdk: Sdk, views: boolean) {
  const tapDir = mkdtempSync(join(tmpdir(), 'views-'));
  cleanups.push(() => rmSync(tapDir, { recursive: true, force: true }));
  const tapFile = join(tapDir, 'wire.jsonl');
  const client = newClient(sdk, views);
  cleanups.push(() => client.close());
  const Transport = sdk === 'sdk v1 (2025-11-25)' ? StdioV1 : StdioV2;
  await client.connect(
    new Transport({
      command: process.execPath,
      args: [TAP, process.execPath, ...NODE_ARGS],
      env: { ...ENV, MCP_TAP_FILE: tapFile },
      cwd: REPO_ROOT,
    }),
  );
  return { client, problems: () => checkServerLines(readTap(tapFile), VERSION[sdk]) };
}

async function overHttp(sdk: Sdk, views: boolean) {
  const handle = await serveHttp(viewsServer(), { port: 0 });
  cleanups.push(() => handle.close());
  const url = new URL(handle.url);
  const transport: any = sdk === 'sdk v1 (2025-11-25)' ? new HttpV1(url) : new HttpV2(url);
  const seen: { message: any; method?: string }[] = [];
  const sent = new Map<string, string>();
  const send = transport.send.bind(transport);
  transport.send = (message: any, options?: any) => {
    if (message.method && message.id !== undefined)
      sent.set(JSON.stringify(message.id), message.method);
    return send(message, options);
  };
  const client = newClient(sdk, views);
  cleanups.push(() => client.close());
  await client.connect(transport);
  const onmessage = transport.onmessage;
  transport.onmessage = (message: any, extra?: any) => {
    const answers = 'id' in message && !('method' in message);
    seen.push({ message, method: answers ? sent.get(JSON.stringify(message.id)) : undefined });
    onmessage(message, extra);
  };
  const schema = mcpSchema(VERSION[sdk]);
  return {
    client,
    problems: () =>
      seen.flatMap(({ message, method }) =>
        schema.check(message, 'result' in message ? method : undefined),
      ),
  };
}

const CASES: [Sdk, 'stdio' | 'HTTP'][] = [
  ['sdk v1 (2025-11-25)', 'stdio'],
  ['sdk v1 (2025-11-25)', 'HTTP'],
  ['client v2 (2026-07-28)', 'stdio'],
  ['client v2 (2026-07-28)', 'HTTP'],
];

describe.each(CASES)('MCP Apps views, %s over %s', (sdk, transport) => {
  const connect = transport === 'stdio' ? overStdio : overHttp;

  it('_meta.ui with its CSP on both the list entry and the read content; tools carry resourceUri and visibility', async () => {
    const { client, problems } = await connect(sdk, true);
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/ui': {},
    });
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t: any) => [t.name, t]));
    expect(byName.openOrders._meta).toEqual({
      ui: { resourceUri: 'ui://orders/board', visibility: ['model', 'app'] },
      'ui/resourceUri': 'ui://orders/board',
    });
    expect(byName.ship._meta.ui).toEqual({ resourceUri: 'ui://orders/board', visibility: ['app'] });

    const ui = { csp: CSP, permissions: { clipboardWrite: {} }, prefersBorder: true };
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: 'ui://orders/board',
        name: 'board',
        title: 'Order board',
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui },
      },
    ]);
    const { contents } = await client.readResource({ uri: 'ui://orders/board' });
    expect(contents).toEqual([
      {
        uri: 'ui://orders/board',
        mimeType: 'text/html;profile=mcp-app',
        text: '<!doctype html><html><body><main id="board"></main></body></html>',
        _meta: { ui },
      },
    ]);
    const result = await client.callTool({ name: 'openOrders', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: '2 open orders, shown on the board.' }]);
    expect(result.structuredContent.orders).toHaveLength(2);
    expect(await client.callTool({ name: 'ship', arguments: { id: 'A-1' } })).toMatchObject({
      content: [{ type: 'text', text: 'A-1 shipped' }],
    });
    await client.close();
    expect(problems()).toEqual([]);
  });
});

// One transport is enough here: the capabilities come from the same place on both (the
// initialize or the envelope), and stdio costs a process per client.
describe.each(Object.keys(VERSION) as Sdk[])(
  'MCP Apps views without UI support, %s over HTTP',
  (sdk) => {
    it('a client without UI support gets text content and no app-only tools', async () => {
      const { client, problems } = await overHttp(sdk, false);
      const { tools } = await client.listTools();
      expect(tools.map((t: any) => t.name)).toEqual(['openOrders']);
      const result = await client.callTool({ name: 'openOrders', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'A-1: packed\nA-2: in transit' }]);
      await client.close();
      expect(problems()).toEqual([]);
    });
  },
);
