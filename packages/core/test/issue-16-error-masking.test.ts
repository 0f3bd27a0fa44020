// Issue #16, part 4: with createServer({ maskInternalErrors: true }) an unexpected error reaches
// the client as a generic message with a ref, and the server's log has the same ref with the
// real message and stack; UserError messages always pass through.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  Prompt,
  Resource,
  Tool,
  UserError,
  type AuditEntry,
  type Context,
  type Logger,
} from '@mcp-fw/core';
import { connectTestClient, JsonRpcError, type TestClient } from '@mcp-fw/core/testing';
import { createNotesServer } from '../../../templates/http/src/server.ts';
import { CLIENT_MODES, listen, officialClient, textOf } from './support/guard-clients.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import { recordStdStreams } from './support/std-streams.ts';

const SECRET = 'connect ECONNREFUSED db.internal:5432 (user=app password=hunter2)';
const MASKED = /^Internal error \(ref ([0-9a-f]{12})\); the server's log has the details$/;

class Leaky {
  @Tool({ description: 'Fails unexpectedly', input: z.object({}) })
  leak(): string {
    throw new Error(SECRET);
  }

  @Tool({ description: 'Fails unexpectedly, later', input: z.object({}) })
  async leak_async(): Promise<string> {
    await Promise.resolve();
    throw new TypeError(SECRET);
  }

  @Tool({
    description: 'Refuses with a message meant for the model',
    input: z.object({ id: z.string() }),
  })
  find({ id }: { id: string }): string {
    throw new UserError(`No order ${id}; order ids look like ORD-1001`);
  }

  @Tool({ description: 'Needs elicitation, which the client lacks', input: z.object({}) })
  async ask(_: object, ctx: Context): Promise<string> {
    await ctx.elicit('Name?', z.object({ name: z.string() }));
    return 'asked';
  }

  @Tool({
    description: 'A full result whose structuredContent holds a BigInt',
    input: z.object({}),
  })
  sizes() {
    return { content: [{ type: 'text', text: 'sizes' }], structuredContent: { bytes: 12n } };
  }

  @Resource('mem://secret', { description: 'Fails unexpectedly' })
  secret(): string {
    throw new Error(SECRET);
  }

  @Prompt({ description: 'Refuses with a message meant for the user' })
  refuse(): string {
    throw new UserError('This prompt is switched off today');
  }
}

interface Logged {
  message: string;
  error?: unknown;
}

function capture(): Logger & { errors: Logged[] } {
  const errors: Logged[] = [];
  return { errors, error: (message, error) => errors.push({ message, error }), warn: () => {} };
}

const refOf = (text = ''): string => {
  const ref = MASKED.exec(text)?.[1];
  expect(ref, `not a masked message: ${text}`).toBeDefined();
  return ref!;
};

const clients: TestClient[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const close of closers.splice(0).reverse()) await close();
});

describe.each(['2025-11-25', '2026-07-28'])(
  'issue #16: maskInternalErrors (in memory, %s)',
  (revision) => {
    async function connect(
      maskInternalErrors: boolean | undefined,
      extra: { audit?: { sink: (e: AuditEntry) => void } } = {},
    ) {
      const logger = capture();
      const server = createServer({
        name: 'leaky',
        version: '1.0.0',
        providers: [Leaky],
        logger,
        maskInternalErrors,
        ...extra,
      });
      const client = await connectTestClient(server, { protocolVersion: revision });
      clients.push(client);
      return { client, logger };
    }

    it('a thrown Error reaches the client as a ref; the log has the ref, the real message and the stack', async () => {
      const { client, logger } = await connect(true);
      for (const name of ['leak', 'leak_async']) {
        logger.errors.length = 0;
        const result = await client.callTool(name, {});
        expect(mcpSchema(revision).check({ jsonrpc: '2.0', id: 1, result }, 'tools/call')).toEqual(
          [],
        );
        expect(result.isError).toBe(true);
        expect(result.content).toHaveLength(1);
        const ref = refOf(result.content[0].text);
        expect(JSON.stringify(result)).not.toContain('hunter2');
        expect(logger.errors).toHaveLength(1);
        expect(logger.errors[0].message).toBe(`tool ${name} threw (ref ${ref})`);
        expect((logger.errors[0].error as Error).message).toBe(SECRET);
        expect((logger.errors[0].error as Error).stack).toContain('issue-16-error-masking.test.ts');
      }
    });

    it('each failure gets its own ref', async () => {
      const { client } = await connect(true);
      const a = refOf((await client.callTool('leak', {})).content[0].text);
      const b = refOf((await client.callTool('leak', {})).content[0].text);
      expect(a).not.toBe(b);
    });

    it('UserError messages, framework refusals and invalid arguments pass through unchanged', async () => {
      const { client, logger } = await connect(true);
      expect(await client.callTool('find', { id: 'X' })).toEqual(
        expect.objectContaining({
          content: [{ type: 'text', text: 'No order X; order ids look like ORD-1001' }],
          isError: true,
        }),
      );
      const error = await client.getPrompt('refuse').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).message).toBe('This prompt is switched off today');
      // The client declared no elicitation capability: the framework says so in every mode.
      if (revision === '2026-07-28') {
        const missing = await client.callTool('ask', {}).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect((missing as JsonRpcError).code).toBe(-32021);
      } else {
        const result = await client.callTool('ask', {});
        expect(result.content[0].text).toMatch(
          /^ctx\.elicit needs the client capability "elicitation"/,
        );
      }
      const invalid = await client.callTool('find', { id: 1 });
      expect(invalid.content[0].text).toMatch(/^Invalid arguments for tool find: id: /);
      expect(logger.errors).toEqual([]);
    });

    it('a resource handler that throws answers -32603 with a ref the log repeats', async () => {
      const { client, logger } = await connect(true);
      const error = (await client.readResource('mem://secret').then(
        () => undefined,
        (e: unknown) => e,
      )) as JsonRpcError;
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error.code).toBe(-32603);
      const ref = refOf(error.message);
      expect(logger.errors).toHaveLength(1);
      expect(logger.errors[0].message).toBe(`internal error while serving a request (ref ${ref})`);
      expect((logger.errors[0].error as Error).message).toBe(SECRET);
    });

    it('the audit log records the ref and the message the client got', async () => {
      const entries: AuditEntry[] = [];
      const { client, logger } = await connect(true, { audit: { sink: (e) => entries.push(e) } });
      const ref = refOf((await client.callTool('leak', {})).content[0].text);
      await client.callTool('find', { id: 'X' });
      expect(entries.map((e) => [e.tool, e.outcome, e.error, e.ref])).toEqual([
        ['leak', 'error', `Internal error (ref ${ref}); the server's log has the details`, ref],
        ['find', 'error', 'No order X; order ids look like ORD-1001', undefined],
      ]);
      expect(logger.errors.map((e) => e.message)).toEqual([`tool leak threw (ref ${ref})`]);
    });

    it('is off by default: a local server shows the error, and logs it', async () => {
      const { client, logger } = await connect(undefined);
      const result = await client.callTool('leak', {});
      expect(result.content).toEqual([{ type: 'text', text: SECRET }]);
      expect(logger.errors.map((e) => e.message)).toEqual(['tool leak threw']);
    });
  },
);

describe.each(CLIENT_MODES)(
  'issue #16: maskInternalErrors over real HTTP, official client (%s, %s)',
  (mode) => {
    it('the model gets the ref, the server log the ref with the real message', async () => {
      const logger = capture();
      const http = await listen(
        createServer({
          name: 'leaky',
          version: '1.0.0',
          providers: [Leaky],
          logger,
          maskInternalErrors: true,
        }),
      );
      closers.push(() => http.close());
      const { client, close } = await officialClient(http.url, mode);
      closers.push(close);
      const result = await client.callTool({ name: 'leak', arguments: {} });
      expect(result.isError).toBe(true);
      const ref = refOf(textOf(result));
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(logger.errors.map((e) => e.message)).toEqual([`tool leak threw (ref ${ref})`]);
      expect((logger.errors[0].error as Error).message).toBe(SECRET);
      expect(textOf(await client.callTool({ name: 'find', arguments: { id: 'X' } }))).toBe(
        'No order X; order ids look like ORD-1001',
      );
    });

    it('unmasked (maskInternalErrors: false), a result that cannot be serialised is an isError result naming the tool and the path', async () => {
      const logger = capture();
      const http = await listen(
        createServer({
          name: 'leaky',
          version: '1.0.0',
          providers: [Leaky],
          logger,
          maskInternalErrors: false,
        }),
      );
      closers.push(() => http.close());
      const { client, close } = await officialClient(http.url, mode);
      closers.push(close);
      const message =
        'Tool "sizes" returned a result that cannot be sent as JSON: a BigInt at $.structuredContent.bytes. ' +
        'Fix: convert BigInt values to a string (String(n)) or a number (Number(n)) before returning them.';
      const result = await client.callTool({ name: 'sizes', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(message);
      expect(logger.errors.map((e) => e.message)).toEqual([message]);
    });
  },
);

describe('issue #16: the scaffolded http template masks internal errors', () => {
  it('an unexpected error in a tool added to its server reaches the client as a ref', async () => {
    const server = createNotesServer();
    class Broken {
      @Tool({ description: 'Fails unexpectedly', input: z.object({}) })
      broken(): string {
        throw new Error(SECRET);
      }
    }
    server.add(new Broken());
    const { written, stop } = recordStdStreams();
    let text: string;
    try {
      const client = await connectTestClient(server);
      clients.push(client);
      text = (await client.callTool('broken', {})).content[0].text ?? '';
    } finally {
      stop();
    }
    const ref = refOf(text);
    const stderr = written.filter((w) => w.stream === 'stderr').map((w) => w.text);
    expect(stderr.join('')).toContain(
      `[mcp-fw] tool broken threw (ref ${ref})\nError: ${SECRET}\n`,
    );
  });
});
