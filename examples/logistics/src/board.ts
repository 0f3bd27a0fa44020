import { readFile } from 'node:fs/promises';
import { Arg, Tool, UserError, View, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import type { Order } from './orders.js';

// `mcp-fw build` bundles views/board/ into dist/views/board.html. The path is the same from
// src/ (tests, mcp-fw dev) and from dist/ (npm start): both sit beside dist/.
const BOARD_FILE = new URL('../dist/views/board.html', import.meta.url);

/**
 * The order board: an MCP Apps view a host renders next to `order_board`'s result. The view
 * calls `order_events` (app-only: the model never sees it) when a row is clicked.
 */
export class OrderBoard {
  constructor(private readonly orders: readonly Order[]) {}

  @View('ui://orders/board', {
    title: 'Order board',
    description: 'A table of the orders; click one for its tracking events',
    prefersBorder: true,
  })
  async board(): Promise<string> {
    try {
      return await readFile(BOARD_FILE, 'utf8');
    } catch {
      throw new Error(
        `The order board is not built (${BOARD_FILE.pathname} is missing). Fix: run npm run build -w examples/logistics (mcp-fw build bundles views/board/).`,
      );
    }
  }

  @Tool({
    description: 'Shows every order on a board (a table of ids, statuses and destinations)',
    annotations: { readOnlyHint: true },
    input: z.object({}),
    output: z.object({
      orders: z.array(
        z.object({
          orderId: z.string(),
          status: z.string(),
          destination: z.string(),
          carrier: z.string(),
        }),
      ),
    }),
    ui: 'ui://orders/board',
  })
  order_board(_args: object, ctx: Context) {
    const orders = this.orders.map(({ orderId, status, destination, carrier }) => ({
      orderId,
      status,
      destination,
      carrier,
    }));
    // A host that renders the board shows the table; any other client gets it as text.
    const text = ctx.rendersViews
      ? `${orders.length} orders are on the board.`
      : orders
          .map((o) => `${o.orderId}: ${o.status} to ${o.destination} (${o.carrier})`)
          .join('\n');
    return { content: [{ type: 'text' as const, text }], structuredContent: { orders } };
  }

  @Tool({
    description: "An order's tracking events, for the board (app-only)",
    annotations: { readOnlyHint: true },
    ui: { resource: 'ui://orders/board', visibility: ['app'] },
  })
  order_events(@Arg('order_id', z.string().min(1)) orderId: string) {
    const order = this.orders.find((o) => o.orderId === orderId);
    if (!order) throw new UserError(`No order with id ${orderId}.`);
    const events = order.events;
    return {
      content: [
        { type: 'text' as const, text: events.map((e) => `${e.location}: ${e.status}`).join('\n') },
      ],
      structuredContent: { orderId, events },
    };
  }
}
