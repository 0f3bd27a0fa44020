import { fileURLToPath } from 'node:url';
import { main } from '@mcp-fw/typescript';
import { expect, it } from 'vitest';

// The example serves src/schemas.gen.ts, read from Weather's signatures and JSDoc: it must be
// what `npm run schemas` would write now.
it('src/schemas.gen.ts matches the signatures of src/weather.ts (mcp-fw-schemas --check)', () => {
  const messages: string[] = [];
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  expect(main(['--project', tsconfig, '--check'], (text) => messages.push(text))).toBe(0);
  expect(messages).toEqual([]);
});
