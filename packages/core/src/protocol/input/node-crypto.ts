import { createRequire } from 'node:module';

// node:crypto is loaded when the first input round is signed, checked or bound, not at start-up:
// most servers never ask for input, and the module costs start-up time and resident memory.
let loaded: typeof import('node:crypto') | undefined;

export function nodeCrypto(): typeof import('node:crypto') {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));
}
