// The tests over the built site (link check, real browser): run by `npm run test:docs-browser`
// after `npm run docs:build`, not by `npm test`, because they need the build and Chromium.
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/*.site.ts'],
    // Beside npm test's results at the repository root, where .ci/run adds them up.
    reporters: ['default', 'json'],
    outputFile: { json: join(import.meta.dirname, '..', '.vitest-results-docs-site.json') },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
