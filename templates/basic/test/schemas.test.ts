import { fileURLToPath } from 'node:url';
import { main } from '@mcp-fw/typescript';
import { expect, it } from 'vitest';

// The server serves src/schemas.gen.ts, read from the signatures and JSDoc of src/greetings.ts:
// it must be what `npx mcp-fw-schemas` writes now (`npm test` and `npm run build` regenerate it).
it('src/schemas.gen.ts matches the signatures (mcp-fw-schemas --check)', () => {
  const messages: string[] = [];
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  expect(main(['--project', tsconfig, '--check'], (text) => messages.push(text))).toBe(0);
  expect(messages).toEqual([]);
});
