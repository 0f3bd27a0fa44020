import { describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';

const connect = officialClientPerTest();

describe.each(OFFICIAL_CLIENTS)('logistics with %s over stdio', (kind) => {
  it.each(LEGACY_REVISIONS)(
    'negotiates %s, tracks orders; every server message is schema-valid',
    async (revision) => {
      const client = await connect(kind, revision, 'examples/logistics');

      const { tools } = await client.listTools();
      // order_events is app-only: these clients declare no MCP Apps support, so it is not listed.
      expect(tools.map((t) => t.name)).toEqual(['query_logistics', 'list_orders', 'order_board']);
      expect(tools[0].inputSchema).toEqual({
        type: 'object',
        properties: {
          order_id: { type: 'string', minLength: 1, description: 'The order id, e.g. ORD-1001' },
        },
        required: ['order_id'],
      });

      const tracked = await client.callTool('query_logistics', { order_id: 'ORD-1001' });
      expect(tracked.isError).toBeFalsy();
      expect(tracked.content).toHaveLength(1);
      expect(tracked.content[0].text).toBe(
        [
          'Order ORD-1001 (SwiftShip SS123456789) to Berlin, DE: delivered',
          '- 2026-11-17T08:12:00Z Rotterdam, NL: Picked up',
          '- 2026-11-18T14:40:00Z Duisburg, DE: Arrived at sorting center',
          '- 2026-11-19T06:05:00Z Berlin, DE: Out for delivery',
          '- 2026-11-19T11:32:00Z Berlin, DE: Delivered, signed by J. Weber',
        ].join('\n'),
      );

      const unknown = await client.callTool('query_logistics', { order_id: 'ORD-9' });
      expect(unknown).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('Known orders: ORD-1001') }],
      });

      const list = await client.callTool('list_orders');
      expect(list.content[0].text).toBe(
        'ORD-1001: delivered\nORD-1002: in_transit\nORD-1003: exception\nORDER-123456: in_transit',
      );

      const wire = client.wire();
      expect(negotiatedVersion(wire)).toBe(revision);
      expect(wire.filter((r) => r.dir === 's2c')).toHaveLength(5);
      expect(checkServerLines(wire, revision)).toEqual([]);
    },
  );
});

// The classic order-tracking tutorial asks the Inspector, then Cline, to track ORDER-123456,
// typed as a user would (any case, stray spaces): the seed data answers it.
describe.each(OFFICIAL_CLIENTS)('the tutorial order with %s over stdio', (kind) => {
  it.each(['ORDER-123456', ' order-123456 '])(
    'query_logistics answers %j with its tracking events',
    async (orderId) => {
      const client = await connect(kind, '2025-11-25', 'examples/logistics');
      const tracked = await client.callTool('query_logistics', { order_id: orderId });
      expect(tracked.isError).toBeFalsy();
      expect(tracked.content).toEqual([
        {
          type: 'text',
          text: [
            'Order ORDER-123456 (SwiftShip SS246813579) to Shanghai, CN: in_transit',
            '- 2026-11-21T03:20:00Z Shenzhen, CN: Picked up',
            '- 2026-11-21T18:05:00Z Guangzhou, CN: Departed sorting center',
            '- 2026-11-22T09:40:00Z Hangzhou, CN: In transit to Shanghai',
          ].join('\n'),
        },
      ]);
      expect(checkServerLines(client.wire(), '2025-11-25')).toEqual([]);
    },
  );
});
