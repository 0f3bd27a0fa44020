import { createRequire } from 'node:module';
import type * as Neutral from './digest.js';

// Node's variant of digest.ts (package.json `imports`, `node` condition). node:crypto is loaded
// when the first input round is signed, checked or bound, not at start-up: most servers never
// ask for input, and the module costs start-up time and resident memory.
let loaded: typeof import('node:crypto') | undefined;

function nodeCrypto(): typeof import('node:crypto') {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));
}

export const sha256Base64url: typeof Neutral.sha256Base64url = (text) =>
  nodeCrypto().createHash('sha256').update(text).digest('base64url');

export const hmacSha256: typeof Neutral.hmacSha256 = (key) => (text) =>
  nodeCrypto().createHmac('sha256', key).update(text).digest('base64url');
