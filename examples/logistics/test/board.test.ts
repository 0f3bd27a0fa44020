import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { bundleViews } from '../../../packages/cli/src/views/bundle-views.ts';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';
import { server } from '../src/server.ts';

// The order board over the wire: bundled as mcp-fw build does, served in process, read and
// driven by the official clients of both eras.

const EXAMPLE = join(REPO_ROOT, 'examples/logistics');
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
let handle: HttpServerHandle;

beforeAll(async () => {
  await bundleViews(EXAMPLE, join(EXAMPLE, 'dist'));
  handle = await serveHttp(server, { port: 0 });
}, 60_000);
afterAll(() => handle?.close());

const CLIENTS = {
  'client v2 (2026-07-28)': (capabilities: object) =>
    new ClientV2(
      { name: 'board-test', version: '1' },
      { capabilities, versionNegotiation: { mode: 'auto' as const } },
    ),
  'sdk v1 (2025-11-25)': (capabilities: object) =>
    new ClientV1({ name: 'board-test', version: '1' }, { capabilities }),
};

async function connect(kind: keyof typeof CLIENTS, capabilities: object): Promise<any> {
  const client: any = CLIENTS[kind](capabilities);
  const url = new URL(handle.url);
  await client.connect(kind.startsWith('client v2') ? new HttpV2(url) : new HttpV1(url));
  return client;
}

describe.each(Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])('the order board, %s', (kind) => {
  it('a host with UI support gets the board, its one-file bundle, and the app-only tool', async () => {
    const client = await connect(kind, { extensions: UI });
    const { tools } = await client.listTools();
    const ui = Object.fromEntries(tools.map((t: any) => [t.name, t._meta?.ui]));
    expect(ui.order_board).toEqual({
      resourceUri: 'ui://orders/board',
      visibility: ['model', 'app'],
    });
    expect(ui.order_events).toEqual({ resourceUri: 'ui://orders/board', visibility: ['app'] });

    const [page] = (await client.readResource({ uri: 'ui://orders/board' })).contents;
    expect(page.mimeType).toBe('text/html;profile=mcp-app');
    expect(page._meta).toEqual({ ui: { prefersBorder: true } });
    expect(page.text).toMatch(/^<!doctype html>/i);
    expect(page.text).toContain('order-board'); // the view's App, inlined
    expect(page.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*\shref=/);

    const board = await client.callTool({ name: 'order_board', arguments: {} });
    expect(board.content).toEqual([{ type: 'text', text: '4 orders are on the board.' }]);
    expect(board.structuredContent.orders.map((o: any) => o.orderId)).toContain('ORD-1003');
    const events = await client.callTool({
      name: 'order_events',
      arguments: { order_id: 'ORD-1003' },
    });
    expect(events.content[0].text).toBe(
      'Prague, CZ: Picked up\nBrno, CZ: Delayed: address could not be verified',
    );
    await client.close();
  });

  it('a client without UI support reads the board as text and is not offered order_events', async () => {
    const client = await connect(kind, {});
    const { tools } = await client.listTools();
    expect(tools.map((t: any) => t.name)).not.toContain('order_events');
    const board = await client.callTool({ name: 'order_board', arguments: {} });
    expect(board.content[0].text).toContain('ORD-1003: exception to Vienna, AT (SwiftShip)');
    await client.close();
  });
});
