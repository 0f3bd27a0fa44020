import { basename } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import workspace from './vitest.workspace.ts';

export default defineConfig({
  // Test files sit outside the packages' tsconfig, so oxc needs the decorator settings here.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  // Node-environment tests resolve through SSR: point our packages at their sources.
  ssr: { resolve: { conditions: ['@mcp-fw/source', ...defaultServerConditions] } },
  test: {
    projects: workspace.map((root) => ({ extends: true, test: { root, name: basename(root) } })),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
