// The README-and-Quick-start walk (test/readme-walk.walk.ts): minutes of npm ci, build and
// install on a fresh clone, so `npm run test:walk` and its own CI step run it, not `npm test`.
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/*.walk.ts'],
    // Beside npm test's results at the repository root, where .ci/run adds them up.
    reporters: ['default', 'json'],
    outputFile: { json: join(import.meta.dirname, '..', '..', '.vitest-results-walk.json') },
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
  },
});
