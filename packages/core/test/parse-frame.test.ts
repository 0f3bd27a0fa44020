import { describe, expect, it } from 'vitest';
import { parseFrame, parseUnescapedFrame } from '../src/jsonrpc/index.ts';

/** The own `__proto__` keys anywhere in a parsed value (JSON.parse makes them own data keys). */
function protoKeys(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const here = Object.hasOwn(value, '__proto__') ? [path] : [];
  return [...here, ...Object.entries(value).flatMap(([k, v]) => protoKeys(v, `${path}.${k}`))];
}

describe('parseFrame', () => {
  it('JSON.parse alone keeps "__proto__" as an own key, plain or spelled with escapes (the hazard)', () => {
    expect(protoKeys(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toEqual(['$.a']);
    expect(protoKeys(JSON.parse('{"a":{"\\u005f_proto__":{"x":1}}}'))).toEqual(['$.a']);
  });

  it.each([
    ['plain', '{"params":{"arguments":{"__proto__":{"polluted":true},"k":1}}}'],
    [
      'one escaped character',
      '{"params":{"arguments":{"\\u005f_proto__":{"polluted":true},"k":1}}}',
    ],
    [
      'every character escaped',
      '{"params":{"arguments":{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":{"polluted":true},"k":1}}}',
    ],
    [
      'deep in an array',
      '{"params":{"arguments":{"list":[{"k":1},{"\\u005F_proto__":{"polluted":true},"k":1}]}}}',
    ],
  ])('drops own "__proto__" keys: %s', (_, text) => {
    const value = parseFrame(text) as { params: { arguments: Record<string, unknown> } };
    expect(protoKeys(value)).toEqual([]);
    // The rest of the data is kept, and assigning it pollutes nothing.
    expect(JSON.stringify(value)).toContain('"k":1');
    const target = Object.assign({}, value.params.arguments);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('walks nesting deeper than the call stack (JSON.parse accepts it, so the frame is valid)', () => {
    const depth = 100_000;
    const text = `{"params":{"arguments":{"text":"\\u0041","deep":${'['.repeat(depth)}{"__proto__":{"polluted":true}}${']'.repeat(depth)}}}}`;
    const value = parseFrame(text) as { params: { arguments: { text: string; deep: unknown } } };
    expect(value.params.arguments.text).toBe('A');
    let inner: unknown = value.params.arguments.deep;
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(inner).toEqual({});
    expect(Object.hasOwn(inner as object, '__proto__')).toBe(false);
  });

  it('keeps everything else as JSON.parse does, escapes and the word "__proto__" in values included', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}',
      '{"jsonrpc":"2.0","id":"x","method":"m","params":{"text":"caf\\u00e9 \\"quoted\\" C:\\\\users"}}',
      '{"jsonrpc":"2.0","id":2,"method":"m","params":{"note":"__proto__ is only a word here"}}',
    ]) {
      expect(parseFrame(text)).toEqual(JSON.parse(text));
    }
  });

  it('parseUnescapedFrame (for text without a backslash) drops plain "__proto__" keys and keeps the rest', () => {
    const text =
      '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"__proto__":{"polluted":true},"k":1},"note":"__proto__"}}';
    const value = parseUnescapedFrame(text);
    expect(protoKeys(value)).toEqual([]);
    expect(value).toEqual(parseFrame(text));
    const plain =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}';
    expect(parseUnescapedFrame(plain)).toEqual(JSON.parse(plain));
  });
});
