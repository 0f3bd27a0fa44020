import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFrame } from '../src/jsonrpc/index.ts';
import { handedOn } from '../src/protocol/eras/modern/admission.ts';
import { EnvelopeMemo } from '../src/protocol/eras/modern/envelope-memo.ts';
import { servedEnvelope } from '../src/protocol/eras/modern/envelope.ts';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';
const LEVEL = 'io.modelcontextprotocol/logLevel';

/** The official client 2.x's envelope and key order (vendor/wire/stdio-modern.jsonl). */
const ENVELOPE = {
  [PV]: '2026-07-28',
  [INFO]: { name: 'era-driver', version: '0.0.1' },
  [CAPS]: { elicitation: { form: {} } },
  [LEVEL]: 'debug',
};

function officialCall(
  id: number,
  args: unknown,
  extraMeta: Record<string, unknown> = { progressToken: id },
): string {
  return JSON.stringify({
    method: 'tools/call',
    params: { name: 'ask', arguments: args, _meta: { ...ENVELOPE, ...extraMeta } },
    jsonrpc: '2.0',
    id,
  });
}

/** What parseFrame gives or throws for `text`, in a comparable form. */
function reference(text: string): { value?: unknown; error?: string } {
  try {
    return { value: parseFrame(text) };
  } catch (error) {
    return { error: String(error) };
  }
}

function viaMemo(memo: EnvelopeMemo, text: string): { value?: unknown; error?: string } {
  try {
    return { value: memo.parse(text) };
  } catch (error) {
    return { error: String(error) };
  }
}

/** What admission reads for a frame's params: the envelope the memo handed on, else its own reading. */
function envelopeRead(value: unknown): { envelope?: unknown; error?: string; handed?: true } {
  const params = (value as { params?: unknown }).params;
  const known = handedOn(params);
  if (known) return { envelope: known, handed: true };
  try {
    return { envelope: servedEnvelope(params) };
  } catch (error) {
    return { error: String(error) };
  }
}

/** The same for parseFrame's value, read from scratch. */
function envelopeReference(text: string): { envelope?: unknown; error?: string } {
  try {
    return { envelope: servedEnvelope((parseFrame(text) as { params?: unknown }).params) };
  } catch (error) {
    return { error: String(error) };
  }
}

const capsOf = (value: unknown) =>
  (value as { params: { _meta: Record<string, unknown> } }).params._meta[CAPS];

/** A memo that has learned the official envelope from one frame. */
function primed(): { memo: EnvelopeMemo; first: unknown } {
  const memo = new EnvelopeMemo();
  const first = memo.parse(officialCall(1, { greeting: 'Hi' }));
  return { memo, first };
}

describe('EnvelopeMemo', () => {
  it('reuses the envelope members a client repeats, and gives what parseFrame gives', () => {
    const { memo, first } = primed();
    for (let id = 2; id < 6; id++) {
      const text = officialCall(id, { greeting: `Hi ${id}`, n: id });
      const value = memo.parse(text);
      expect(value).toEqual(parseFrame(text));
      expect(JSON.stringify(value)).toBe(JSON.stringify(parseFrame(text))); // key order too
      // The same frozen members, not a new parse of them; the progress token is the frame's own.
      expect(capsOf(value)).toBe(capsOf(first));
      expect(Object.isFrozen(capsOf(value))).toBe(true);
      expect(
        (value as { params: { _meta: { progressToken: number } } }).params._meta.progressToken,
      ).toBe(id);
    }
  });

  it('reuses members that close _meta too (no other member after them)', () => {
    const memo = new EnvelopeMemo();
    const frame = (id: number) => officialCall(id, { a: id }, {});
    const first = memo.parse(frame(1));
    const second = memo.parse(frame(2));
    expect(second).toEqual(parseFrame(frame(2)));
    expect(capsOf(second)).toBe(capsOf(first));
  });

  it('gives what parseFrame gives when the keys after the members change from frame to frame', () => {
    const { memo } = primed();
    const rests = [
      { progressToken: 2 },
      {},
      { progressToken: 3, other: 'x' },
      { other: 'y', progressToken: 4 },
      { progressToken: 'five' },
    ];
    for (const [i, rest] of rests.entries()) {
      const text = officialCall(10 + i, { i }, rest);
      const value = memo.parse(text);
      expect(JSON.stringify(value)).toBe(JSON.stringify(parseFrame(text)));
      expect(value).toEqual(parseFrame(text));
    }
  });

  it('gives every frame its own _meta object, as parseFrame does (a write to one reaches no other)', () => {
    const memo = new EnvelopeMemo();
    const frame = (id: number) => officialCall(id, { a: id }, {});
    const metaOf = (value: unknown) =>
      (value as { params: { _meta: Record<string, unknown> } }).params._meta;
    memo.parse(frame(1));
    const second = metaOf(memo.parse(frame(2)));
    const third = metaOf(memo.parse(frame(3)));
    expect(second).not.toBe(third);
    expect(Object.isFrozen(second)).toBe(false);
    second[PV] = 'changed';
    second.extra = true;
    expect(third[PV]).toBe('2026-07-28');
    expect(Object.keys(third)).toEqual(Object.keys(ENVELOPE));
    expect(metaOf(memo.parse(frame(4)))).toEqual(ENVELOPE);
  });

  it.each([
    ['another _meta key, in the arguments', officialCall(2, { _meta: { x: 1 } })],
    [
      'the members text inside a string (escaped quotes)',
      officialCall(2, { text: JSON.stringify(ENVELOPE) }),
    ],
    [
      'a \\u escape anywhere',
      officialCall(2, { text: 'caf\u00e9' }).replace('caf\u00e9', 'caf\\u00e9'),
    ],
    [
      'the members under a key that ends in _meta',
      officialCall(2, {}).replace('"_meta":', '"x_meta":'),
    ],
    [
      'the members under a root-level _meta',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'm', _meta: ENVELOPE, params: {} }),
    ],
    ['a different log level', officialCall(2, {}, { [LEVEL]: 'info', progressToken: 2 })],
    [
      'a repeated member later in _meta (the later value wins)',
      officialCall(2, {}, { [CAPS]: { roots: {} } }),
    ],
  ])('gives what parseFrame gives with %s', (_, text) => {
    const { memo } = primed();
    expect(viaMemo(memo, text)).toEqual(reference(text));
  });

  it('hands over the envelope it read once for members put back from the template', () => {
    const { memo, first } = primed();
    // The frame the members were learned from was parsed whole: its envelope is read as usual.
    expect(handedOn((first as { params: unknown }).params)).toBeUndefined();
    const values: { params: Record<string, unknown> }[] = [];
    const known: unknown[] = [];
    for (const id of [2, 3]) {
      values.push(memo.parse(officialCall(id, { id })) as { params: Record<string, unknown> });
      known.push(handedOn(values.at(-1)!.params));
    }
    expect(known[0]).toEqual(servedEnvelope(values[0]!.params));
    expect(known[0]).toEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: ENVELOPE[CAPS],
      clientInfo: ENVELOPE[INFO],
      logLevel: 'debug',
    });
    expect(known[1]).toBe(known[0]); // read once
    // Only for those very params, and taken once: a copy, or a second look, reads as usual.
    const next = memo.parse(officialCall(4, {})) as { params: Record<string, unknown> };
    expect(handedOn({ ...next.params })).toBeUndefined();
    expect(handedOn(next.params)).toBe(known[0]);
    expect(handedOn(next.params)).toBeUndefined();
  });

  /** An envelope key after progressToken: it is not one of the members the memo puts back. */
  const levelLast = (level: string) => (id: number) =>
    JSON.stringify({
      method: 'tools/call',
      params: {
        name: 'ask',
        arguments: {},
        _meta: { [PV]: '2026-07-28', [CAPS]: {}, progressToken: id, [LEVEL]: level },
      },
      jsonrpc: '2.0',
      id,
    });
  it.each([
    [
      'an envelope key after the members (its value changes)',
      levelLast('debug'),
      levelLast('error'),
    ],
    [
      'keys after the members other than the learned ones',
      (id: number) => officialCall(id, {}),
      (id: number) => officialCall(id, {}, { other: id }),
    ],
  ])('hands over no envelope with %s (the frame is read whole)', (_, learnFrom, frame) => {
    const memo = new EnvelopeMemo();
    memo.parse(learnFrom(1));
    const text = frame(2);
    const value = memo.parse(text) as { params: unknown };
    expect(value).toEqual(parseFrame(text));
    expect(handedOn(value.params)).toBeUndefined();
    expect(envelopeRead(value)).toEqual(envelopeReference(text));
  });

  it('hands over no envelope for members that are refused, so each request is refused', () => {
    const memo = new EnvelopeMemo();
    const call = (id: number) => officialCall(id, {}).replace('"2026-07-28"', '"2099-01-01"');
    memo.parse(call(1));
    for (const id of [2, 3]) {
      const value = memo.parse(call(id)) as { params: unknown };
      expect(handedOn(value.params)).toBeUndefined();
      expect(() => servedEnvelope(value.params)).toThrow(/Unsupported protocol version/);
    }
  });

  it('drops "__proto__" keys on the reusing path as parseFrame does', () => {
    const { memo } = primed();
    const text = officialCall(2, { text: 'x' }).replace(
      '{"text":"x"}',
      '{"text":"x","__proto__":{"polluted":true}}',
    );
    const value = memo.parse(text) as { params: { arguments: object } };
    expect(Object.hasOwn(value.params.arguments, '__proto__')).toBe(false);
    expect(value).toEqual(parseFrame(text));
  });

  it.each([
    [
      'a trailing comma after the members',
      officialCall(2, {}, {}).replace('"debug"}', '"debug",}'),
    ],
    ['a broken frame elsewhere', officialCall(2, {}).replace('"jsonrpc":"2.0"', '"jsonrpc":2.0"')],
    ['a string left open before the members', officialCall(2, {}).replace('"ask"', '"ask')],
  ])('throws what parseFrame throws for %s', (_, text) => {
    const { memo } = primed();
    const expected = reference(text);
    expect(expected.error).toBeDefined();
    expect(viaMemo(memo, text)).toEqual(expected);
  });

  it('learns a changed envelope again', () => {
    const memo = new EnvelopeMemo();
    const changed = (id: number) => officialCall(id, {}, { [LEVEL]: 'error', progressToken: id });
    memo.parse(officialCall(1, {}));
    const first = memo.parse(changed(2));
    const second = memo.parse(changed(3));
    expect(second).toEqual(parseFrame(changed(3)));
    expect(capsOf(second)).toBe(capsOf(first));
  });

  it('does not keep members too deep to serialise: such frames are parsed whole, and nothing throws', () => {
    const memo = new EnvelopeMemo();
    const depth = 100_000;
    const deep = `${'{"x":'.repeat(depth)}{}${'}'.repeat(depth)}`;
    const text = (id: number) => officialCall(id, {}).replace('{"elicitation":{"form":{}}}', deep);
    const first = memo.parse(text(1));
    const second = memo.parse(text(2));
    // Not reused (a fresh parse each time) and not frozen.
    expect(capsOf(second) === capsOf(first)).toBe(false); // (a boolean: vitest cannot print the value)
    expect(Object.isFrozen(capsOf(second))).toBe(false);
    expect((second as { id: number }).id).toBe(2);
  });

  it('freezes the members it keeps all the way down', () => {
    const { first } = primed();
    const info = (first as { params: { _meta: Record<string, unknown> } }).params._meta[INFO];
    expect(Object.isFrozen(capsOf(first))).toBe(true);
    expect(Object.isFrozen((capsOf(first) as { elicitation: object }).elicitation)).toBe(true);
    expect(Object.isFrozen(info)).toBe(true);
  });

  it('gives what parseFrame gives for any sequence of frames (property test)', () => {
    const member = fc.constantFrom<[string, unknown]>(
      [PV, '2026-07-28'],
      [PV, '2025-11-25'],
      [CAPS, {}],
      [CAPS, { elicitation: { form: {} } }],
      [INFO, { name: 'c', version: '1' }],
      [LEVEL, 'debug'],
      ['progressToken', 7],
      ['_meta', { nested: true }],
      ['__proto__', { polluted: true }],
    );
    const members = fc.array(member, { maxLength: 6 });
    const official: [string, unknown][] = [...Object.entries(ENVELOPE), ['progressToken', 1]];
    /** Mostly `undefined`: most frames repeat the sequence's envelope and are well-formed. */
    const sometimes = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
    const frame = fc.record({
      order: fc.constantFrom('official', 'bench'),
      own: sometimes(members),
      args: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.dictionary(fc.string({ unit: 'grapheme-ascii' }), fc.integer()),
      ),
      edit: sometimes(
        fc.tuple(
          fc.nat(),
          fc.constantFrom('', ',', '"', '\\', '}', '{', ' ', '_meta":', '\\u0041'),
        ),
      ),
    });
    let reused = 0;
    let handedOver = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(official), members),
        fc.array(frame, { minLength: 1, maxLength: 8 }),
        (shared, frames) => {
          const memo = new EnvelopeMemo();
          const seen = new Set<unknown>();
          frames.forEach((f, id) => {
            // Members are written as text, so duplicate keys and "__proto__" reach the parser.
            const meta = `{${(f.own ?? shared).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
            const params = `{"name":"t","arguments":${JSON.stringify(f.args)},"_meta":${meta}}`;
            let text =
              f.order === 'official'
                ? `{"method":"tools/call","params":${params},"jsonrpc":"2.0","id":${id}}`
                : `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
            if (f.edit) {
              const [at, insert] = f.edit;
              const i = at % (text.length + 1);
              text = text.slice(0, i) + insert + text.slice(i);
            }
            const got = viaMemo(memo, text);
            const expected = reference(text);
            expect(got).toEqual(expected);
            if (got.value !== undefined) {
              expect(JSON.stringify(got.value)).toBe(JSON.stringify(expected.value));
              // The envelope a connection serves the frame with is the one its text spells.
              if (typeof got.value === 'object' && got.value !== null) {
                const { handed, ...read } = envelopeRead(got.value);
                if (handed) handedOver++;
                expect(read).toEqual(envelopeReference(text));
              }
            }
            const caps = (got.value as { params?: { _meta?: Record<string, unknown> } } | undefined)
              ?.params?._meta?.[CAPS];
            if (typeof caps === 'object' && caps !== null) {
              if (seen.has(caps)) reused++;
              seen.add(caps);
            }
          });
        },
      ),
      { numRuns: 2000 },
    );
    // The reusing path ran, not only the fallback, and envelopes were handed over.
    expect(reused).toBeGreaterThan(100);
    expect(handedOver).toBeGreaterThan(100);
  });
});
