import { describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';

const connect = officialClientPerTest();

describe.each(OFFICIAL_CLIENTS)('calculator with %s over stdio', (kind) => {
  it.each(LEGACY_REVISIONS)(
    'negotiates %s, lists and calls tools; every server message is schema-valid',
    async (revision) => {
      const client = await connect(kind, revision, 'examples/calculator');
      const structured = revision >= '2025-06-18';

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['add', 'subtract', 'multiply', 'divide']);
      expect(tools[0].inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
      expect(tools[0].outputSchema !== undefined).toBe(structured);

      const sum = await client.callTool('add', { a: 2, b: 3.5 });
      expect(sum.isError).toBeFalsy();
      expect(JSON.parse(sum.content[0].text)).toEqual({ result: 5.5, expression: '2 + 3.5' });
      expect(sum.structuredContent).toEqual(
        structured ? { result: 5.5, expression: '2 + 3.5' } : undefined,
      );

      const quotient = await client.callTool('divide', { a: 7, b: 2 });
      expect(quotient.structuredContent ?? JSON.parse(quotient.content[0].text)).toMatchObject({
        result: 3.5,
      });

      const byZero = await client.callTool('divide', { a: 1, b: 0 });
      expect(byZero).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('divide by zero') }],
      });

      const wire = client.wire();
      expect(negotiatedVersion(wire)).toBe(revision);
      expect(wire.filter((r) => r.dir === 's2c').length).toBe(5);
      expect(checkServerLines(wire, revision)).toEqual([]);
    },
  );
});
