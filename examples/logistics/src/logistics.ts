import { Arg, Tool, UserError } from '@mcp-fw/core';
import { z } from 'zod';
import type { Order } from './orders.js';

/**
 * Order tracking, as in the classic MCP tutorial. The order book is a constructor dependency,
 * so the server is given an instance: `providers: [new Logistics(ORDERS)]`.
 */
export class Logistics {
  constructor(private readonly orders: readonly Order[]) {}

  @Tool({
    description: 'Looks up the logistics (shipping) status and tracking events of an order',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  query_logistics(
    @Arg('order_id', z.string().min(1).describe('The order id, e.g. ORD-1001')) orderId: string,
  ): string {
    const order = this.orders.find((o) => o.orderId === orderId.trim().toUpperCase());
    if (!order) {
      const known = this.orders.map((o) => o.orderId).join(', ');
      throw new UserError(`No order with id ${orderId}. Known orders: ${known}`);
    }
    const lines = order.events.map((e) => `- ${e.time} ${e.location}: ${e.status}`);
    return [
      `Order ${order.orderId} (${order.carrier} ${order.trackingNumber}) to ${order.destination}: ${order.status}`,
      ...lines,
    ].join('\n');
  }

  @Tool({
    description: 'Lists the ids and statuses of all known orders',
    annotations: { readOnlyHint: true },
  })
  list_orders(): string {
    return this.orders.map((o) => `${o.orderId}: ${o.status}`).join('\n');
  }
}
