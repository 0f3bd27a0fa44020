import { connectTestClient } from '@mcp-fw/core/testing';
import { createProxy } from '@mcp-fw/proxy';
import { afterEach, describe, expect, it } from 'vitest';
import { quiet } from './support/upstream.ts';

// An official SDK v2 server upstream (sessionful Streamable HTTP over node:http, no 2026-07-28):
// the proxy's own connection and each caller's upstream session fall back from server/discover
// to initialize, and every forwarded call goes on the caller's session.

interface SdkFixture {
  url: string;
  close(): Promise<void>;
}
const { startSdkV2Fixture } = (await import(
  new URL('../scripts/sdk-v2-fixture.mjs', import.meta.url).href
)) as { startSdkV2Fixture: () => Promise<SdkFixture> };

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('a proxy to an official SDK v2 server', () => {
  it.each(['2025-11-25', '2026-07-28'])(
    'a %s caller’s tools/call goes on its own upstream session, as a legacy request (not the probe’s 2026-07-28 envelope)',
    async (revision) => {
      const sdk = await startSdkV2Fixture();
      closers.push(() => sdk.close());
      const proxy = await createProxy(sdk.url, { server: { logger: quiet }, onWarning: () => {} });
      closers.push(() => proxy.close());
      expect(proxy.health()).toMatchObject([{ state: 'up', protocolVersion: '2025-11-25' }]);
      const client = await connectTestClient(proxy, { protocolVersion: revision });
      closers.push(() => client.close());
      expect((await client.callTool('test_simple_text', {})).content).toEqual([
        { type: 'text', text: 'This is a simple text response for testing.' },
      ]);
      expect((await client.readResource('test://template/7/data')).contents[0]).toMatchObject({
        uri: 'test://template/7/data',
        text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
      });
    },
  );
});
