import { fileURLToPath } from 'node:url';
import { connect, type Progress } from '@mcp-fw/client';
import { serveHttp } from '@mcp-fw/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';
import { patience } from '../../../test-support/patience.ts';
import { startSdkV2Http } from './fixtures/sdk-v2-http.ts';
import { fixtureServer } from './support/fixture-server.ts';

// Real peers over real processes and sockets: the calculator example over stdio (its built
// program) and HTTP, the official SDK v2 server over HTTP, the official SDK 1.x over stdio.

const CALCULATOR = fileURLToPath(
  new URL('../../../examples/calculator/dist/main.js', import.meta.url),
);
const SDK_V1 = fileURLToPath(new URL('./fixtures/sdk-v1-stdio-server.mjs', import.meta.url));
const calculatorCommand = { command: process.execPath, args: [CALCULATOR] };

describe('the calculator example over stdio', () => {
  it.each([
    [undefined, 'modern', '2026-07-28'],
    ['2025-11-25', 'legacy', '2025-11-25'],
    ['2024-11-05', 'legacy', '2024-11-05'],
  ] as const)(
    'protocolVersion %s → %s %s: lists and calls, structured output checked',
    async (pin, era, version) => {
      // The probe's deadline counts from the spawn: a process that starts slower than 3 s (a
      // cold start on a loaded 2-core runner) was taken for a legacy server, and the test saw
      // 2025-11-25. It answers server/discover once up, so the deadline grows with the load.
      const client = await connect(calculatorCommand, {
        protocolVersion: pin,
        probeTimeoutMs: patience(3_000),
      });
      expect([client.transport, client.era, client.protocolVersion]).toEqual([
        'stdio',
        era,
        version,
      ]);
      expect((await client.listTools()).map((t) => t.name)).toEqual([
        'add',
        'subtract',
        'multiply',
        'divide',
      ]);
      const product = await client.callTool('multiply', { a: 6, b: 7 });
      expect(JSON.parse(product.content[0].text as string)).toEqual({
        result: 42,
        expression: '6 * 7',
      });
      const byZero = await client.callTool('divide', { a: 1, b: 0 });
      expect(byZero.isError).toBe(true);
      expect(byZero.content[0].text).toContain('divide by zero');
      await client.close();
    },
  );

  it('close() ends the server process', async () => {
    const client = await connect(calculatorCommand);
    await client.close();
    await expect(client.listTools()).rejects.toThrow('The client closed the connection');
  });
});

describe('the calculator example over HTTP', () => {
  let handle: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    handle = await serveHttp(calculator, { port: 0 });
  });
  afterAll(() => handle.close());

  it.each([
    [undefined, 'modern', '2026-07-28'],
    ['2025-11-25', 'legacy', '2025-11-25'],
    ['2025-03-26', 'legacy', '2025-03-26'],
  ] as const)('protocolVersion %s → Streamable HTTP, %s %s', async (pin, era, version) => {
    const client = await connect(handle.url, { protocolVersion: pin });
    expect([client.transport, client.era, client.protocolVersion]).toEqual([
      'streamable-http',
      era,
      version,
    ]);
    const sum = await client.callTool('add', { a: 2, b: 3.5 });
    expect(JSON.parse(sum.content[0].text as string)).toEqual({
      result: 5.5,
      expression: '2 + 3.5',
    });
    await client.close();
  });

  it('a server that refuses the Streamable HTTP initialize is reached over the 2024 HTTP+SSE transport', async () => {
    const client = await connect(handle.url.replace(/\/mcp$/, '/sse'));
    expect([client.transport, client.era]).toEqual(['http+sse', 'legacy']);
    const sum = await client.callTool('add', { a: 1, b: 1 });
    expect(JSON.parse(sum.content[0].text as string)).toMatchObject({ result: 2 });
    await client.close();
  });

  it('transport: http+sse speaks the 2024-11-05 transport directly', async () => {
    const client = await connect(handle.url.replace(/\/mcp$/, '/sse'), {
      transport: 'http+sse',
      protocolVersion: '2024-11-05',
    });
    expect([client.transport, client.protocolVersion]).toEqual(['http+sse', '2024-11-05']);
    expect(await client.listTools()).toHaveLength(4);
    await client.close();
  });
});

describe('questions from an mcp-fw server over HTTP', () => {
  let handle: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    handle = await serveHttp(fixtureServer(), { port: 0 });
  });
  afterAll(() => handle.close());

  it.each(['2025-11-25', '2026-07-28'])(
    '%s: the same handlers answer elicitation, sampling and roots over Streamable HTTP',
    async (protocolVersion) => {
      const client = await connect(handle.url, {
        protocolVersion,
        handlers: {
          elicitation: () => ({ action: 'accept', content: { name: 'Lin' } }),
          sampling: () => ({
            role: 'assistant',
            content: { type: 'text', text: 'Hm' },
            model: 'm',
          }),
          roots: () => [{ uri: 'file:///srv' }],
        },
      });
      expect((await client.callTool('greet', {})).content[0].text).toBe('Hello Dr Lin');
      expect((await client.callTool('ponder', {})).content[0].text).toBe('Hm / file:///srv');
      await client.close();
    },
  );
});

describe('the official SDK v2 server over HTTP', () => {
  let sdk: Awaited<ReturnType<typeof startSdkV2Http>>;
  beforeAll(async () => {
    sdk = await startSdkV2Http();
  });
  afterAll(() => sdk.close());

  it.each([
    [undefined, 'modern', '2026-07-28'],
    ['2025-11-25', 'legacy', '2025-11-25'],
  ] as const)(
    'protocolVersion %s → %s %s: calls with structured output and progress',
    async (pin, era, version) => {
      const client = await connect(sdk.url, { protocolVersion: pin });
      expect([client.era, client.protocolVersion]).toEqual([era, version]);
      expect(client.server.serverInfo).toMatchObject({ name: 'sdk-v2' });
      const sum = await client.callTool('add', { a: 20, b: 22 });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const progress: Progress[] = [];
      const counted = await client.callTool('count', {}, { onProgress: (p) => progress.push(p) });
      expect(counted.content[0].text).toBe('counted');
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
      await client.close();
    },
  );

  it('2026-07-28: an input_required round is answered by the elicitation handler and retried', async () => {
    const client = await connect(sdk.url, {
      handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) },
    });
    expect(client.era).toBe('modern');
    expect((await client.callTool('greet', {})).content[0].text).toBe('Hello Grace');
    await client.close();
  });
});

describe('the official SDK 1.x server over stdio (legacy only)', () => {
  it('server/discover is refused, so the client falls back to initialize on the same process', async () => {
    const client = await connect({ command: process.execPath, args: [SDK_V1] });
    expect([client.era, client.protocolVersion]).toEqual(['legacy', '2025-11-25']);
    expect((await client.callTool('add', { a: 2, b: 2 })).content[0].text).toBe('4');
    await client.close();
  });
});
