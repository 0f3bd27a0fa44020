import { createRequire } from 'node:module';
import type * as Neutral from './sha256-hex.js';

// Node's variant of sha256-hex.ts (package.json `imports`, `node` condition): node:crypto, loaded
// when the first skill file is hashed. Importing @noble/hashes' SHA-2 module instead would run
// its top level (the SHA-512 round constants built from BigInts, a first hasher) at every
// server's start-up, and most servers serve no skills.
let loaded: typeof import('node:crypto') | undefined;

export const sha256Hex: typeof Neutral.sha256Hex = (bytes) =>
  (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'))
    .createHash('sha256')
    .update(bytes)
    .digest('hex');
