import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToBase64url, utf8 } from './base64url.js';

// SHA-256 and HMAC-SHA256 for input rounds on every runtime but Node, from @noble/hashes
// (audited, pure JS, synchronous): Web Crypto's digests are async only, while a round is signed
// and checked inside synchronous code (minting a state, binding a retry). Node resolves
// `#digest` to digest-node.ts (package.json `imports`), its native and lazily loaded node:crypto.

/** SHA-256 of `text` (UTF-8), base64url. */
export function sha256Base64url(text: string): string {
  return bytesToBase64url(sha256(utf8(text)));
}

/** HMAC-SHA256 (base64url) under one key; keyed once, so each signature hashes only its message. */
export function hmacSha256(key: Uint8Array): (text: string) => string {
  const keyed = hmac.create(sha256, key);
  return (text) => bytesToBase64url(keyed.clone().update(utf8(text)).digest());
}
