// Issue #29, "Masking": a tool throwing Error('database password is … at db.internal') must not
// hand that text to a model over HTTP unless the server's owner says so; over stdio only the
// local user sees it, so the detail stays.
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, UserError, type Logger } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { CLIENT_MODES, listen, officialClient, textOf } from './support/guard-clients.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { REPO_ROOT } from './support/paths.ts';
import { StdioProcess, stopAll } from './support/stdio-process.ts';

const SECRET = 'database password is hunter2 at db.internal';
const MASKED = /^Internal error \(ref ([0-9a-f]{12})\); the server's log has the details$/;

class Orders {
  @Tool({ description: 'Fails the way a database driver does', input: z.object({}) })
  leak(): string {
    throw new Error(SECRET);
  }

  @Tool({ description: 'Refuses with a message meant for the model', input: z.object({}) })
  refuse(): string {
    throw new UserError('No such order; order ids look like ORD-1001');
  }
}

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (message, error) => lines.push(`${message}: ${(error as Error | undefined)?.message}`),
    warn: () => {},
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(stopAll);

async function served(maskInternalErrors?: boolean) {
  const logger = capture();
  const http = await listen(
    createServer({
      name: 'orders',
      version: '1.0.0',
      providers: [Orders],
      logger,
      maskInternalErrors,
    }),
  );
  closers.push(() => http.close());
  return { http, logger };
}

describe.each(CLIENT_MODES)(
  'Masking: a tool throwing Error(database password is … at db.internal) over Streamable HTTP (%s, %s)',
  (mode) => {
    it('by default the model gets only a ref; the server log has the ref and the real message; a UserError passes through', async () => {
      const { http, logger } = await served();
      const { client, close } = await officialClient(http.url, mode);
      closers.push(close);
      const result = await client.callTool({ name: 'leak', arguments: {} });
      expect(result.isError).toBe(true);
      const ref = MASKED.exec(textOf(result))?.[1];
      expect(ref, textOf(result)).toBeDefined();
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(JSON.stringify(result)).not.toContain('db.internal');
      expect(logger.lines).toEqual([`tool leak threw (ref ${ref}): ${SECRET}`]);
      const refused = await client.callTool({ name: 'refuse', arguments: {} });
      expect(textOf(refused)).toBe('No such order; order ids look like ORD-1001');
    });

    it('maskInternalErrors: false is the owner saying the detail may go out', async () => {
      const { http } = await served(false);
      const { client, close } = await officialClient(http.url, mode);
      closers.push(close);
      expect(textOf(await client.callTool({ name: 'leak', arguments: {} }))).toBe(SECRET);
    });
  },
);

describe('Masking: a tool throwing Error(database password is … at db.internal) over other transports', () => {
  it('over HTTP+SSE (2024-11-05) the default masks too', async () => {
    const { http } = await served();
    const client = new ClientV1({ name: 'masking-test', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL('/sse', http.url)));
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'leak', arguments: {} });
    expect(textOf(result)).toMatch(MASKED);
  });

  it('over stdio the default keeps the detail: only the local user reads it', async () => {
    const entry = nodeEntry(
      join(REPO_ROOT, 'packages/core/test/fixtures/errors/stdio-errors-server.ts'),
    );
    const server = new StdioProcess(process.execPath, entry.args, {
      env: { ...entry.env, MCP_FW_MASK: undefined },
    });
    await server.initialize();
    expect((await server.callTool('leak')).result).toEqual({
      content: [{ type: 'text', text: 'login failed: password=hunter2' }],
      isError: true,
    });
    server.kill('SIGKILL');
  });

  it('in memory (connectTestClient) the default keeps the detail', async () => {
    const client = await connectTestClient(
      createServer({ name: 'orders', version: '1.0.0', providers: [Orders], logger: capture() }),
    );
    closers.push(() => client.close());
    expect((await client.callTool('leak', {})).content[0].text).toBe(SECRET);
  });
});
