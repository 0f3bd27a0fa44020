import { basename } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import workspace from './vitest.workspace.ts';

export default defineConfig({
  // Test files sit outside the packages' tsconfig, so oxc needs the decorator settings here.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  // Node-environment tests resolve through SSR: point our packages at their sources. Without the
  // bundlers' `module` condition, which picks OpenTelemetry builds that import without file
  // extensions (Node's ESM loader refuses them); tests resolve packages as Node does.
  ssr: {
    resolve: {
      conditions: ['@mcp-fw/source', ...defaultServerConditions.filter((c) => c !== 'module')],
    },
  },
  test: {
    projects: workspace.map((root) => ({ extends: true, test: { root, name: basename(root) } })),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
