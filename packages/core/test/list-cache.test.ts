import { describe, expect, it } from 'vitest';
import { JsonRpcError } from '../src/jsonrpc/index.ts';
import { ListCache } from '../src/protocol/list-cache.ts';
import type { Registry } from '../src/registry/index.ts';

describe('ListCache', () => {
  it('refuses a cursor nested deeper than the call stack with -32602, before any lookup', () => {
    const cache = new ListCache();
    const registry = {} as Registry;
    const nested = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    let items = 0;
    const get = () =>
      cache.get(
        registry,
        { list: 'tools', revision: '2025-11-25', cursor: nested, pageSize: 2 },
        () => (items++, []),
        (t) => t,
      );
    expect(get).toThrow(JsonRpcError);
    expect(get).toThrow('Invalid params: unknown or malformed cursor');
    expect(items).toBe(0);
  });
});
