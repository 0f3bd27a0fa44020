// base64url without padding (RFC 4648 §5) over web-standard APIs, so the root entry runs where
// there is no Buffer (Deno, Bun, Workers, browsers). Strings are UTF-8.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url text; `undefined` when it is not base64url. */
export function base64urlToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function textToBase64url(text: string): string {
  return bytesToBase64url(utf8(text));
}

/** The UTF-8 text base64url `text` encodes; `undefined` when it is not base64url. */
export function base64urlToText(text: string): string | undefined {
  const bytes = base64urlToBytes(text);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}
