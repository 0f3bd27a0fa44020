import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createServer, Tool, UserError, type AuditEntry, type AuditOptions } from '@mcp-fw/core';
import { CLIENT_MODES, listen, officialClient, textOf } from './support/guard-clients.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { REPO_ROOT } from './support/paths.ts';

let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const Order = z.object({ orderId: z.string(), note: z.string().optional() });

class Orders {
  @Tool({ description: 'Finds an order', input: Order, rateLimit: { max: 3, perMs: 60_000 } })
  find({ orderId }: z.infer<typeof Order>) {
    if (orderId === 'none') throw new UserError(`No order ${orderId}`);
    return `order ${orderId}`;
  }

  @Tool({ description: 'Returns too much', input: z.object({}) })
  dump() {
    return 'x'.repeat(200);
  }
}

/** The fields that vary from run to run, checked for their type and then left out. */
function stable(entry: AuditEntry): Partial<AuditEntry> {
  const { time, durationMs, requestId, session, ...rest } = entry;
  expect(new Date(time).toISOString()).toBe(time);
  expect(typeof durationMs).toBe('number');
  expect(['string', 'number']).toContain(typeof requestId);
  return rest;
}

describe.each(CLIENT_MODES)('audit log through the official client (%s, %s)', (mode, version) => {
  async function start(audit: AuditOptions) {
    const http = await listen(
      createServer({
        name: 'orders',
        version: '1.0.0',
        providers: [Orders],
        limits: { maxResultBytes: 100 },
        audit,
      }),
      {
        authenticate: () => ({ auth: { sub: 'alice' } }),
      },
    );
    cleanups.push(() => http.close());
    const { client, close } = await officialClient(http.url, mode);
    cleanups.push(close);
    return client;
  }

  it('writes one entry per tool call: who, what, how it ended, argument keys but not values', async () => {
    const entries: AuditEntry[] = [];
    const client = await start({ sink: (entry) => entries.push(entry) });
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf(await client.callTool({ name, arguments: args }));
    expect(await call('find', { orderId: 'A1', note: 'private' })).toBe('order A1');
    expect(await call('find', { orderId: 'none' })).toBe('No order none');
    expect(await call('find', { orderId: 42 })).toMatch(/^Invalid arguments for tool find/);
    expect(await call('find', { orderId: 'A2' })).toMatch(/^Rate limit exceeded/);
    expect(await call('dump', {})).toMatch(/^Tool dump produced 200 bytes/);
    const common = { identity: 'alice', address: '127.0.0.1', protocolVersion: version };
    expect(entries.map(stable)).toEqual([
      { ...common, tool: 'find', outcome: 'ok', argumentKeys: ['orderId', 'note'] },
      {
        ...common,
        tool: 'find',
        outcome: 'error',
        error: 'No order none',
        argumentKeys: ['orderId'],
      },
      {
        ...common,
        tool: 'find',
        outcome: 'invalid_arguments',
        error: expect.stringMatching(/^Invalid arguments for tool find/),
        argumentKeys: ['orderId'],
      },
      {
        ...common,
        tool: 'find',
        outcome: 'rate_limited',
        error: expect.stringMatching(/^Rate limit exceeded/),
        argumentKeys: ['orderId'],
      },
      {
        ...common,
        tool: 'dump',
        outcome: 'too_large',
        error: expect.stringMatching(/^Tool dump produced 200 bytes/),
        argumentKeys: [],
      },
    ]);
    // Legacy calls carry their Mcp-Session-Id; 2026-07-28 over HTTP has no sessions.
    const [first] = entries;
    if (mode === 'legacy')
      expect(
        entries.every((e) => typeof e.session === 'string' && e.session === first.session),
      ).toBe(true);
    else expect(entries.every((e) => e.session === undefined)).toBe(true);
  });

  it('records argument values only when asked', async () => {
    const entries: AuditEntry[] = [];
    const client = await start({ sink: (entry) => entries.push(entry), arguments: true });
    await client.callTool({ name: 'find', arguments: { orderId: 'A1', note: 'private' } });
    expect(entries.map((e) => e.arguments)).toEqual([{ orderId: 'A1', note: 'private' }]);
  });
});

const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/guarded-server.ts');

describe.each(CLIENT_MODES)(
  'guardrails over stdio with the official client (%s, %s)',
  (mode, version) => {
    it('writes the audit log as JSON lines on stderr, beside rate limits, timeouts and output limits', async () => {
      const client = new Client(
        { name: 'audit-test', version: '1.0.0' },
        mode === 'auto'
          ? { versionNegotiation: { mode: 'auto' as const } }
          : { supportedProtocolVersions: ['2025-11-25'] },
      );
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: nodeEntry(FIXTURE).args,
        env: { ...process.env, ...nodeEntry(FIXTURE).env } as Record<string, string>,
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      await client.connect(transport);
      cleanups.push(() => client.close());
      const call = async (name: string, args: Record<string, unknown>) =>
        textOf(await client.callTool({ name, arguments: args }));
      expect(await call('echo', { text: 'a', secret: 's3cret' })).toBe('a');
      expect(await call('echo', { text: 'b' })).toBe('b');
      expect(await call('echo', { text: 'c' })).toBe(
        'Rate limit exceeded: tool echo allows 2 calls per 60 s per session (rateLimit). Retry after 60 s.',
      );
      expect(await call('hang', {})).toBe(
        'Tool hang timed out after 50 ms (timeoutMs) and was stopped.',
      );
      expect(await call('big', { n: 101 })).toBe(
        'Tool big produced 101 bytes of content, more than the limit of 100 bytes (maxResultBytes). Return less, or link to a resource instead.',
      );
      await client.close();
      const entries = stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as AuditEntry);
      expect(entries.map((e) => [e.tool, e.outcome, e.argumentKeys, e.protocolVersion])).toEqual([
        ['echo', 'ok', ['text', 'secret'], version],
        ['echo', 'ok', ['text'], version],
        ['echo', 'rate_limited', ['text'], version],
        ['hang', 'timeout', [], version],
        ['big', 'too_large', ['n'], version],
      ]);
      expect(stderr).not.toContain('s3cret');
      expect(new Set(entries.map((e) => e.session)).size).toBe(1);
    });
  },
);
