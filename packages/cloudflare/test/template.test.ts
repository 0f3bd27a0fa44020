// The workers template's module worker (templates/workers/src/worker.ts) in real workerd, as
// `wrangler dev` would serve it: its own test runs the fetch handler on Node with a stand-in for
// Durable Objects, so this is where the template meets Cloudflare's runtime.
import { join } from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../core/test/support/paths.ts';
import { startWorker, type RunningWorker } from '../../core/test/support/workerd.ts';

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker({
    entry: join(REPO_ROOT, 'templates/workers/src/worker.ts'),
    durableObjects: [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }],
  });
}, 30_000);
afterAll(() => worker?.stop());

it('the workers template serves both official clients in workerd: 2026-07-28 and a 2025-11-25 session', async () => {
  const modern = new ClientV2(
    { name: 'template-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await modern.connect(new StreamableV2(new URL('/mcp', worker.origin)));
  const legacy = new ClientV1({ name: 'template-test', version: '1.0.0' });
  const transport = new StreamableV1(new URL('/mcp', worker.origin));
  await legacy.connect(transport);
  try {
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(
      await modern.callTool({ name: 'to_fahrenheit', arguments: { celsius: 100 } }),
    ).toMatchObject({
      content: [{ type: 'text', text: '100 °C is 212 °F' }],
    });
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}\./);
    expect(
      await legacy.callTool({ name: 'to_fahrenheit', arguments: { celsius: 'hot' } }),
    ).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/celsius/) }],
    });
  } finally {
    await Promise.all([modern.close(), legacy.close()]);
  }
}, 20_000);
