import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToBase64url, utf8 } from './base64url.js';

// SHA-256 and HMAC-SHA256 for input rounds, from @noble/hashes (audited, pure JS, synchronous):
// node:crypto would tie the root entry to Node, and Web Crypto's digests are async only, while a
// round is signed and checked inside synchronous code (minting a state, binding a retry).

/** SHA-256 of `text` (UTF-8), base64url. */
export function sha256Base64url(text: string): string {
  return bytesToBase64url(sha256(utf8(text)));
}

/** HMAC-SHA256 under one key; keyed once, so each signature hashes only its message. */
export function hmacSha256(key: Uint8Array): (text: string) => string {
  const keyed = hmac.create(sha256, key);
  return (text) => bytesToBase64url(keyed.clone().update(utf8(text)).digest());
}

/** Compares two strings in time that depends on their length only, not on where they differ. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** `length` random bytes from the platform's CSPRNG (Web Crypto, present on every target runtime). */
export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}
