import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

// A skill file's SHA-256 (its `sha256:` digest) on every runtime but Node, from @noble/hashes.
// Node resolves `#sha256-hex` to sha256-hex-node.ts (package.json `imports`).

/** SHA-256 of `bytes`, lowercase hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}
