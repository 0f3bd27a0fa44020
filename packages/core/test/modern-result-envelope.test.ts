import { describe, expect, it } from 'vitest';
import { RawJson } from '../src/jsonrpc/index.ts';
import { modernResult } from '../src/protocol/eras/modern/result-envelope.ts';
import type { ServerCore } from '../src/protocol/server-core.ts';

// modernResult splices a pre-serialised envelope into the result's JSON when the result has
// nothing of the envelope's own, and merges objects otherwise. Both must give the same wire.
const core = {
  identity: { name: 'env', version: '2.0.0' },
  cacheHints: { ttlMs: 5000, cacheScope: 'public' },
} as unknown as ServerCore;
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'env', version: '2.0.0' } };

/** The text the engine would send, parsed back, plus the raw text for key checks. */
function wire(value: unknown): { text: string; parsed: Record<string, unknown> } {
  const text = value instanceof RawJson ? value.json : JSON.stringify(value);
  return { text, parsed: JSON.parse(text) as Record<string, unknown> };
}

function keyCount(text: string, key: string): number {
  return text.split(`"${key}":`).length - 1;
}

describe('the 2026-07-28 result envelope', () => {
  it('splices into a plain result, an empty one and a cached page', () => {
    const plain = wire(
      modernResult({ content: [{ type: 'text', text: 'hi' }] }, 'tools/call', core),
    );
    expect(plain.parsed).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    expect(wire(modernResult({}, 'completion/complete', core)).parsed).toEqual({
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    expect(wire(modernResult(undefined, 'tools/call', core)).parsed).toEqual({
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    const page = wire(modernResult(new RawJson('{"tools":[]}'), 'tools/list', core));
    expect(page.parsed).toEqual({
      tools: [],
      resultType: 'complete',
      ttlMs: 5000,
      cacheScope: 'public',
      _meta: SERVER_INFO,
    });
    expect(wire(modernResult(new RawJson('{}'), 'tools/list', core)).parsed).toEqual({
      resultType: 'complete',
      ttlMs: 5000,
      cacheScope: 'public',
      _meta: SERVER_INFO,
    });
  });

  it("keeps a handler's own _meta, resultType and cache hints, each key once", () => {
    const own = wire(modernResult({ content: [], _meta: { trace: 't1' } }, 'tools/call', core));
    expect(own.parsed).toEqual({
      content: [],
      resultType: 'complete',
      _meta: { trace: 't1', ...SERVER_INFO },
    });
    expect(keyCount(own.text, '_meta')).toBe(1);

    const hinted = wire(modernResult({ contents: [], ttlMs: 10 }, 'resources/read', core));
    expect(hinted.parsed).toMatchObject({
      ttlMs: 10,
      cacheScope: 'public',
      resultType: 'complete',
    });
    expect(keyCount(hinted.text, 'ttlMs')).toBe(1);

    const interim = wire(
      modernResult(
        { resultType: 'input_required', inputRequests: {}, requestState: 's' },
        'resources/read',
        core,
      ),
    );
    expect(interim.parsed).toEqual({
      resultType: 'input_required',
      inputRequests: {},
      requestState: 's',
      _meta: SERVER_INFO,
    });
    expect(keyCount(interim.text, 'resultType')).toBe(1);
  });

  it('adds cache hints only to cacheable methods', () => {
    expect(wire(modernResult({ content: [] }, 'tools/call', core)).parsed).not.toHaveProperty(
      'ttlMs',
    );
    expect(wire(modernResult({ contents: [] }, 'resources/read', core)).parsed).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'public',
    });
  });
});
