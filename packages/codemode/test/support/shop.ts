import { z } from 'zod';
import { createServer, Tool, UserError, type McpFwServer } from '@mcp-fw/core';
import { quickJsSandbox, type QuickJsSandboxOptions } from '@mcp-fw/codemode';

// A small shop: three tools a script chains, one that refuses, one that echoes, one that fails
// inside, and one listed as itself.

/** What the tools did, in order. */
export const seen: string[] = [];

export class Shop {
  @Tool({
    description: 'Finds a customer by email',
    input: z.object({ email: z.string().describe('Their email address') }),
    output: z.object({ id: z.string(), name: z.string() }),
  })
  find_customer({ email }: { email: string }) {
    seen.push(`find ${email}`);
    return { id: 'c1', name: 'Ada' };
  }

  @Tool({
    description: 'Lists the orders of a customer',
    input: z.object({ customer_id: z.string() }),
    output: z.object({ orders: z.array(z.object({ id: z.string(), total: z.number() })) }),
  })
  list_orders({ customer_id }: { customer_id: string }) {
    seen.push(`orders ${customer_id}`);
    return {
      orders: [
        { id: 'o1', total: 30 },
        { id: 'o2', total: 12 },
      ],
    };
  }

  @Tool({
    description: 'Refunds an order',
    input: z.object({ order_id: z.string(), reason: z.enum(['damaged', 'late']).optional() }),
  })
  refund({ order_id }: { order_id: string }) {
    if (order_id === 'unpaid') throw new UserError('order unpaid was never paid');
    seen.push(`refund ${order_id}`);
    return `refunded ${order_id}`;
  }

  @Tool({ description: 'Echoes its arguments back', input: z.record(z.string(), z.unknown()) })
  echo(args: Record<string, unknown>) {
    return { keys: Object.keys(args), proto: Object.getPrototypeOf(args) === Object.prototype };
  }

  @Tool({ description: 'Fails inside', input: z.object({}) })
  crash() {
    throw new Error('database password=hunter2 rejected');
  }

  @Tool({ description: 'Who you are signed in as', input: z.object({}) })
  whoami() {
    return 'ada';
  }
}

/** The shop in code mode, with `whoami` always visible. */
export function app(
  sandbox: QuickJsSandboxOptions = {},
  extra: { maxCalls?: number; maxOutputBytes?: number } = {},
): McpFwServer {
  return createServer({
    name: 'shop',
    version: '1.0.0',
    providers: [Shop],
    maskInternalErrors: true,
    logger: { debug() {}, info() {}, warn() {}, error() {} } as never,
  }).codeMode({ sandbox: quickJsSandbox(sandbox), alwaysVisible: ['whoami'], ...extra });
}
