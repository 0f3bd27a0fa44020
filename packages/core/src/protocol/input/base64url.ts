// base64url without padding (RFC 4648 §5), in plain code so the root entry runs where there is no
// Buffer (Deno, Bun, Workers, browsers); btoa/atob would need a binary string in between, which
// costs more than the encoding. Strings are UTF-8.

const ALPHABET = encoderOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
/** Character code → its 6 bits, or -1 for a character outside the alphabet. */
const VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET[i]] = i;

function encoderOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

// Both directions work on bytes: the text side is ASCII, which TextEncoder/TextDecoder convert
// natively, faster than building a string a character at a time.
export function bytesToBase64url(bytes: Uint8Array): string {
  const rest = bytes.length % 3;
  const whole = bytes.length - rest;
  const out = new Uint8Array((whole / 3) * 4 + (rest === 0 ? 0 : rest + 1));
  let at = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[at++] = ALPHABET[n >> 18];
    out[at++] = ALPHABET[(n >> 12) & 63];
    out[at++] = ALPHABET[(n >> 6) & 63];
    out[at++] = ALPHABET[n & 63];
  }
  if (rest > 0) {
    const n = (bytes[whole] << 16) | (rest === 2 ? bytes[whole + 1] << 8 : 0);
    out[at++] = ALPHABET[n >> 18];
    out[at++] = ALPHABET[(n >> 12) & 63];
    if (rest === 2) out[at] = ALPHABET[(n >> 6) & 63];
  }
  return decoder.decode(out);
}

/** Decodes base64url text; `undefined` when it is not base64url (padding included). */
export function base64urlToBytes(text: string): Uint8Array | undefined {
  const chars = encoder.encode(text);
  const rest = chars.length % 4;
  if (rest === 1) return undefined;
  const whole = chars.length - rest;
  const bytes = new Uint8Array((whole / 4) * 3 + (rest === 0 ? 0 : rest - 1));
  let at = 0;
  let bad = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = VALUE[chars[i]];
    const b = VALUE[chars[i + 1]];
    const c = VALUE[chars[i + 2]];
    const d = VALUE[chars[i + 3]];
    bad |= a | b | c | d;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[at++] = n >> 16;
    bytes[at++] = n >> 8;
    bytes[at++] = n;
  }
  if (rest > 0) {
    const a = VALUE[chars[whole]];
    const b = VALUE[chars[whole + 1]];
    const c = rest === 3 ? VALUE[chars[whole + 2]] : 0;
    bad |= a | b | c;
    const n = (a << 18) | (b << 12) | (c << 6);
    bytes[at++] = n >> 16;
    if (rest === 3) bytes[at] = n >> 8;
  }
  // A character outside the alphabet (-1, or a multi-byte UTF-8 sequence) sets the sign bit.
  return bad < 0 ? undefined : bytes;
}

export function textToBase64url(text: string): string {
  return bytesToBase64url(utf8(text));
}

/** The UTF-8 text base64url `text` encodes; `undefined` when it is not base64url. */
export function base64urlToText(text: string): string | undefined {
  const bytes = base64urlToBytes(text);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}
