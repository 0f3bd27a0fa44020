import { fileURLToPath } from 'node:url';
import { main } from '@mcp-fw/typescript';
import { expect, it } from 'vitest';

// The server serves src/schemas.gen.ts, read from the signatures and JSDoc of src/greetings.ts:
// it must be what `npx mcp-fw-schemas` writes now (`npm test` and `npm run build` regenerate it).
// It builds a TypeScript program of the project: seconds on a busy machine, past vitest's 5 s.
it('src/schemas.gen.ts matches the signatures (mcp-fw-schemas --check)', {
  timeout: 60_000,
}, () => {
  const messages: string[] = [];
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  expect(main(['--project', tsconfig, '--check'], (text) => messages.push(text))).toBe(0);
  expect(messages).toEqual([]);
});
