// Issue #16, part 3: a handler whose result cannot be written as JSON (a BigInt, a cycle, a
// throwing toJSON) no longer gets a bare -32603 "Internal error". A tool call answers with an
// isError result naming the tool, the JSONPath and the fix, and the server's log names the tool;
// a resource read or prompt answers -32603 naming the member and the path.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, text, Tool, type Logger } from '@mcp-fw/core';
import { connectTestClient, JsonRpcError, type TestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from './support/mcp-schema.ts';

const BIGINT_FIX =
  'Fix: convert BigInt values to a string (String(n)) or a number (Number(n)) before returning them.';

class Inventory {
  @Tool({ description: 'Items and their sizes', input: z.object({}) })
  inventory() {
    return { items: [{ size: 1 }, { size: 2 }, { size: 3n }] };
  }

  @Tool({ description: 'A tree whose child points back at it', input: z.object({}) })
  tree() {
    const root: Record<string, unknown> = { name: 'root', children: [{ name: 'leaf' }] };
    (root.children as Record<string, unknown>[])[0].parent = root;
    return root;
  }

  @Tool({ description: 'A value whose toJSON throws', input: z.object({}) })
  stamp() {
    return {
      when: {
        toJSON: () => {
          throw new Error('clock unavailable');
        },
      },
    };
  }

  @Tool({
    description: 'Totals, under an output schema',
    input: z.object({}),
    output: z.object({
      total: z.number(),
      rows: z.array(z.object({ id: z.string(), bytes: z.number() })),
    }),
  })
  totals() {
    return {
      total: 2,
      rows: [
        { id: 'a', bytes: 1 },
        { id: 'b', bytes: 9007199254740993n },
      ],
    };
  }

  @Tool({
    description: 'A full result whose structuredContent holds a BigInt',
    input: z.object({}),
  })
  full() {
    return { content: [text('ok')], structuredContent: { stats: { 'bytes used': 12n } } };
  }

  @Tool({ description: 'Fine', input: z.object({}) })
  fine() {
    return { items: [{ size: 1 }] };
  }

  @Resource('mem://disk', { description: 'Disk usage' })
  disk() {
    return { free: 10n };
  }

  @Resource('mem://meta', { description: 'Text with a BigInt in its _meta' })
  meta() {
    return { text: 'x', _meta: { inode: 7n } };
  }

  @Prompt({ description: 'Messages with a cycle in _meta' })
  looped() {
    const meta: Record<string, unknown> = {};
    meta.self = meta;
    return { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], _meta: meta };
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function capture(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, error: (m) => errors.push(m), warn: () => {} };
}

async function connect(protocolVersion: string, logger: Logger, maskInternalErrors?: boolean) {
  const server = createServer({
    name: 'unserialisable',
    version: '1.0.0',
    providers: [Inventory],
    logger,
    maskInternalErrors,
  });
  const client = await connectTestClient(server, { protocolVersion });
  clients.push(client);
  return client;
}

async function callChecked(client: TestClient, name: string, revision: string) {
  const result = await client.callTool(name, {});
  expect(mcpSchema(revision).check({ jsonrpc: '2.0', id: 1, result }, 'tools/call')).toEqual([]);
  return result;
}

async function rejection(promise: Promise<unknown>): Promise<JsonRpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcError);
  return error as JsonRpcError;
}

const isError = (message: string) =>
  expect.objectContaining({ content: [{ type: 'text', text: message }], isError: true });

describe.each(['2025-11-25', '2026-07-28'])(
  'issue #16: unserialisable results (%s)',
  (revision) => {
    it('a BigInt in a returned object: isError naming the tool, the path and the fix; the log names the tool', async () => {
      const logger = capture();
      const client = await connect(revision, logger);
      const message = `Tool "inventory" returned a result that cannot be sent as JSON: a BigInt at $.items[2].size. ${BIGINT_FIX}`;
      expect(await callChecked(client, 'inventory', revision)).toEqual(isError(message));
      expect(logger.errors).toEqual([message]);
    });

    it('a circular object: the path of the reference and where it points back to', async () => {
      const logger = capture();
      const client = await connect(revision, logger);
      expect(await callChecked(client, 'tree', revision)).toEqual(
        isError(
          'Tool "tree" returned a result that cannot be sent as JSON: a circular reference (back to $) at ' +
            '$.children[0].parent. Fix: return a copy without the cycle, e.g. only the fields the client needs.',
        ),
      );
      expect(logger.errors).toHaveLength(1);
      expect(logger.errors[0]).toContain('Tool "tree"');
    });

    it('a toJSON that throws is named with its error', async () => {
      const client = await connect(revision, capture());
      expect(await callChecked(client, 'stamp', revision)).toEqual(
        isError(
          'Tool "stamp" returned a result that cannot be sent as JSON: a value whose toJSON() threw "clock unavailable" ' +
            'at $.when. Fix: make toJSON() return a JSON value, or convert the value before returning it.',
        ),
      );
    });

    it('under an output schema too', async () => {
      const client = await connect(revision, capture());
      expect(await callChecked(client, 'totals', revision)).toEqual(
        isError(
          `Tool "totals" returned a result that cannot be sent as JSON: a BigInt at $.rows[1].bytes. ${BIGINT_FIX}`,
        ),
      );
    });

    it("inside a full result's own structuredContent (found when the frame is serialised)", async () => {
      const logger = capture();
      const client = await connect(revision, logger);
      const message =
        'Tool "full" returned a result that cannot be sent as JSON: a BigInt at $.structuredContent.stats["bytes used"]. ' +
        BIGINT_FIX;
      expect(await callChecked(client, 'full', revision)).toEqual(isError(message));
      expect(logger.errors).toEqual([message]);
    });

    it('a result that serialises is untouched and nothing is logged', async () => {
      const logger = capture();
      const client = await connect(revision, logger);
      expect(await callChecked(client, 'fine', revision)).toEqual(
        expect.objectContaining({ content: [{ type: 'text', text: '{"items":[{"size":1}]}' }] }),
      );
      expect(logger.errors).toEqual([]);
    });

    it('a resource read answers -32603 naming the resource, the path and the fix', async () => {
      const logger = capture();
      const client = await connect(revision, logger);
      const plain = await rejection(client.readResource('mem://disk'));
      expect(plain.code).toBe(-32603);
      expect(plain.message).toBe(
        `Internal error: Resource mem://disk returned a result that cannot be sent as JSON: a BigInt at $.free. ${BIGINT_FIX}`,
      );
      const meta = await rejection(client.readResource('mem://meta'));
      expect(meta.message).toBe(
        'Internal error: Resource mem://meta returned a result that cannot be sent as JSON: a BigInt at ' +
          `$.contents[0]._meta.inode. ${BIGINT_FIX}`,
      );
      expect(logger.errors).toHaveLength(2);
      expect(logger.errors[0]).toMatch(
        /^Resource mem:\/\/disk returned a result that cannot be sent as JSON: a BigInt at \$\.free\. .* \(ref [0-9a-f]{12}\)$/,
      );
    });

    it('a prompt answers -32603 naming the prompt and the path', async () => {
      const client = await connect(revision, capture());
      const error = await rejection(client.getPrompt('looped'));
      expect(error.code).toBe(-32603);
      expect(error.message).toBe(
        'Internal error: Prompt "looped" returned a result that cannot be sent as JSON: a circular reference ' +
          '(back to $._meta) at $._meta.self. Fix: return a copy without the cycle, e.g. only the fields the client needs.',
      );
    });

    it('with maskInternalErrors the client gets only a ref, which the log repeats with the details', async () => {
      const logger = capture();
      const client = await connect(revision, logger, true);
      const result = await callChecked(client, 'inventory', revision);
      const ref = /^Internal error \(ref ([0-9a-f]{12})\); the server's log has the details$/.exec(
        result.content[0].text ?? '',
      )?.[1];
      expect(ref).toBeDefined();
      expect(result.isError).toBe(true);
      expect(logger.errors).toEqual([
        `Tool "inventory" returned a result that cannot be sent as JSON: a BigInt at $.items[2].size. ${BIGINT_FIX} (ref ${ref})`,
      ]);
    });
  },
);

describe('issue #16: unserialisable values nested deeper than the call stack', () => {
  it('are still found (the walk is iterative), with the path shortened in the middle', async () => {
    class Deep {
      @Tool({ description: 'A BigInt 100,000 arrays deep', input: z.object({}) })
      deep() {
        let value: unknown = [1n];
        for (let i = 0; i < 100_000; i++) value = [value];
        return { value };
      }
    }
    const logger = capture();
    const client = await connectTestClient(
      createServer({ name: 'deep', version: '1.0.0', providers: [Deep], logger }),
    );
    clients.push(client);
    const result = await client.callTool('deep', {});
    expect(result.isError).toBe(true);
    const message = result.content[0].text ?? '';
    expect(
      message.startsWith(
        'Tool "deep" returned a result that cannot be sent as JSON: a BigInt at $.value[0][0]',
      ),
    ).toBe(true);
    expect(message).toContain('…');
    expect(message.endsWith(`[0][0][0]. ${BIGINT_FIX}`)).toBe(true);
    expect(message.length).toBeLessThan(500);
  });
});
