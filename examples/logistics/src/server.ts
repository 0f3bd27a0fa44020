import { createServer } from '@mcp-fw/core';
import { OrderBoard } from './board.js';
import { Logistics } from './logistics.js';
import { ORDERS } from './orders.js';

export const server = createServer({
  name: 'logistics',
  version: '0.1.0',
  instructions:
    'Answers questions about shipping orders. Use query_logistics with an order id like ORD-1001.',
  providers: [new Logistics(ORDERS), new OrderBoard(ORDERS)],
});
