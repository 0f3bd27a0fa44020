// The tests over the built site (link check, real browser): run by `npm run test:docs-browser`
// after `npm run docs:build`, not by `npm test`, because they need the build and Chromium.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/*.site.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
