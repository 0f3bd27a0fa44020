// requestState is signed with node:crypto on Node and with @noble/hashes elsewhere (the root entry
// is runtime-neutral), and its wire format did not change: states minted before (the fixed tokens
// below, made with these keys and payloads) still verify, the same payload mints the same token,
// and both digest variants give the same digests and signatures.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64urlToBytes, bytesToBase64url } from '../src/protocol/input/base64url.ts';
import * as neutral from '../src/protocol/input/digest.ts';
import * as onNode from '../src/protocol/input/digest-node.ts';
import { RequestStateCodec } from '../src/protocol/input/request-state.ts';
import { bindingOf } from '../src/protocol/input/round-binding.ts';

const TEXT_KEY = 'a fixed requestState key, 32+ bytes: ✓ ünïcode';
const BYTES_KEY = new Uint8Array(40).map((_, i) => i * 7);
const BIND = bindingOf(
  'tools/call',
  { name: 'book', arguments: { z: 1, a: ['ü', { y: true, b: null }] } },
  'alice@example.com',
);
const ROUND_2 = {
  run: 'run-1',
  round: 2,
  bind: BIND,
  asked: ['city'],
  answers: { date: { action: 'accept', content: { when: 'tomorrow ☀' } } },
  start: 1_800_000_000_000,
};
const MINTED_AT = 1_800_000_000_500;

// Minted by RequestStateCodec on node:crypto (HMAC-SHA256, Buffer base64url).
const OLD_TEXT_KEY_TOKEN =
  'eyJydW4iOiJydW4tMSIsInJvdW5kIjoyLCJiaW5kIjp7Im1ldGhvZCI6InRvb2xzL2NhbGwiLCJ0YXJnZXQiOiJib29rIiwiYXJncyI6IjZYbzFqSTNpbHFtRHBSTGJQQzFxZEU4X3RjOTFxTDFSaTZ4WV9WRWF3ZzgiLCJwcmluY2lwYWwiOiJfNDJZR2Z3T0VyOE5KSWt1UlpoLUpKb28zT2cycUZ5dFlPS09xcWpHMlhZIn0sImFza2VkIjpbImNpdHkiXSwiYW5zd2VycyI6eyJkYXRlIjp7ImFjdGlvbiI6ImFjY2VwdCIsImNvbnRlbnQiOnsid2hlbiI6InRvbW9ycm93IOKYgCJ9fX0sInN0YXJ0IjoxODAwMDAwMDAwMDAwLCJleHAiOjE4MDAwMDAwNjA1MDB9.Cd98-LziW7JQ4cOctoLiZScUrFJXBCm3rn6bjBG8dGQ';
const OLD_BYTES_KEY_TOKEN =
  'eyJydW4iOiJyIiwicm91bmQiOjEsImJpbmQiOnsibWV0aG9kIjoidG9vbHMvY2FsbCIsInRhcmdldCI6ImJvb2siLCJhcmdzIjoiNlhvMWpJM2lscW1EcFJMYlBDMXFkRThfdGM5MXFMMVJpNnhZX1ZFYXdnOCIsInByaW5jaXBhbCI6Il80MllHZndPRXI4TkpJa3VSWmgtSkpvbzNPZzJxRnl0WU9LT3FxakcyWFkifSwiYXNrZWQiOltdLCJhbnN3ZXJzIjp7fSwic3RhcnQiOjAsImV4cCI6NjAwMDB9.Qd0gp_IiG_jCg8o_kC3vdgm-gdtAClWM_J-foCs39kg';

describe('requestState format across the move off node:crypto', () => {
  it('binds a call with the same SHA-256 digests as before', () => {
    expect(BIND).toEqual({
      method: 'tools/call',
      target: 'book',
      args: '6Xo1jI3ilqmDpRLbPC1qdE8_tc91qL1Ri6xY_VEawg8',
      principal: '_42YGfwOEr8NJIkuRZh-JJoo3Og2qFytYOKOqqjG2XY',
    });
  });

  it('verifies states minted before, under a text key and a byte key', () => {
    const text = new RequestStateCodec(TEXT_KEY, 60_000);
    expect(text.verify(OLD_TEXT_KEY_TOKEN, MINTED_AT)).toEqual({
      ...ROUND_2,
      exp: 1_800_000_060_500,
    });
    const bytes = new RequestStateCodec(BYTES_KEY, 60_000);
    expect(bytes.verify(OLD_BYTES_KEY_TOKEN, 0)).toMatchObject({ run: 'r', round: 1, exp: 60_000 });
  });

  it('mints the very tokens the node:crypto version minted', () => {
    expect(new RequestStateCodec(TEXT_KEY, 60_000).mint(ROUND_2, MINTED_AT)).toBe(
      OLD_TEXT_KEY_TOKEN,
    );
    const round1 = { run: 'r', round: 1, bind: BIND, asked: [], answers: {}, start: 0 };
    expect(new RequestStateCodec(BYTES_KEY, 60_000).mint(round1, 0)).toBe(OLD_BYTES_KEY_TOKEN);
  });

  it('refuses a state under another key, altered, re-encoded or cut', () => {
    const codec = new RequestStateCodec(TEXT_KEY, 60_000);
    const [body, signature] = OLD_TEXT_KEY_TOKEN.split('.');
    const refused = (state: unknown) => () => codec.verify(state, MINTED_AT);
    expect(refused(OLD_BYTES_KEY_TOKEN)).toThrow(/not issued by this server or was altered/);
    expect(refused(`${body.slice(0, -2)}fQ.${signature}`)).toThrow(/not issued by this server/);
    // The last character's two spare bits: same bytes to a lenient decoder, not this server's text.
    expect(refused(`${body}.${signature.slice(0, -1)}R`)).toThrow(/not issued by this server/);
    expect(refused(`${body}.${signature}=`)).toThrow(/not issued by this server/);
    expect(refused(`${body}.`)).toThrow(/not issued by this server/);
    expect(refused(`.${signature}`)).toThrow(/not issued by this server/);
    expect(refused(body)).toThrow(/not issued by this server/);
    expect(refused(42)).toThrow(/must be a string/);
    expect(() => codec.verify(OLD_TEXT_KEY_TOKEN, 1_800_000_060_501)).toThrow(/has expired/);
  });

  it('a random per-process key signs states it alone verifies', () => {
    const a = new RequestStateCodec(undefined, 60_000);
    const b = new RequestStateCodec(undefined, 60_000);
    const state = a.mint(ROUND_2, MINTED_AT);
    expect(a.verify(state, MINTED_AT)).toMatchObject({ run: 'run-1' });
    expect(() => b.verify(state, MINTED_AT)).toThrow(/not issued by this server/);
  });

  it('refuses a key under 32 bytes', () => {
    expect(() => new RequestStateCodec('x'.repeat(31), 1)).toThrow(/at least 32 bytes/);
    expect(() => new RequestStateCodec('é'.repeat(16), 1)).not.toThrow();
  });

  it('the runtime-neutral digests equal node:crypto’s', () => {
    const keys = [utf8Of(TEXT_KEY), BYTES_KEY, randomBytes(32), randomBytes(100)];
    const texts = ['', 'ü ☀ \u{1F600}', 'x'.repeat(55), 'y'.repeat(64), 'z'.repeat(10_000)];
    for (const text of texts) {
      expect(neutral.sha256Base64url(text)).toBe(onNode.sha256Base64url(text));
      for (const key of keys) {
        const sign = neutral.hmacSha256(key);
        expect(sign(text)).toBe(onNode.hmacSha256(key)(text));
        // Keyed once, signed many times: each signature stands alone.
        expect(sign(text)).toBe(onNode.hmacSha256(key)(text));
      }
    }
  });

  it('encodes and decodes base64url as Buffer does, and refuses what is not base64url', () => {
    for (let length = 0; length < 200; length++) {
      const bytes = randomBytes(length);
      const text = bytesToBase64url(bytes);
      expect(text).toBe(bytes.toString('base64url'));
      expect(Buffer.from(base64urlToBytes(text) as Uint8Array)).toEqual(bytes);
    }
    for (const text of ['a', 'ab=c', 'ab+/', 'abé', 'abc.', 'abcd\n'])
      expect(base64urlToBytes(text), text).toBeUndefined();
  });
});

function utf8Of(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
