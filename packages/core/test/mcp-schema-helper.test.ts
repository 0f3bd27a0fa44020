import { describe, expect, it } from 'vitest';
import { mcpSchema } from './support/mcp-schema.ts';

// The schema helper is what every wire test leans on, so it must be able to fail.
describe('mcp schema helper', () => {
  it('accepts a valid tools/list result and rejects an invalid one', () => {
    const v = mcpSchema('2025-06-18');
    const ok = {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] },
    };
    expect(v.check(ok, 'tools/list')).toEqual([]);
    const bad = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a' }] } };
    expect(v.check(bad, 'tools/list')).not.toEqual([]);
  });

  it('uses the 2020-12 schema for 2025-11-25 and the draft-07 one for 2024-11-05', () => {
    const content = { content: [{ type: 'text', text: 'x' }] };
    expect(
      mcpSchema('2025-11-25').check({ jsonrpc: '2.0', id: 'a', result: content }, 'tools/call'),
    ).toEqual([]);
    expect(
      mcpSchema('2024-11-05').check({ jsonrpc: '2.0', id: 'a', result: content }, 'tools/call'),
    ).toEqual([]);
    const audio = { content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] };
    expect(
      mcpSchema('2024-11-05').check({ jsonrpc: '2.0', id: 1, result: audio }, 'tools/call'),
    ).not.toEqual([]);
  });
});
