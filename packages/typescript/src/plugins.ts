import { resolve } from 'node:path';
import { SchemaExtractor, type ExtractOptions } from './extract.js';
import { defaultOut, writeManifest } from './write.js';

/** Options of {@link mcpFwSchemasVite} and {@link mcpFwSchemasEsbuild}. */
export interface SchemasPluginOptions extends ExtractOptions {
  /** Where the module goes (default: `schemas.gen.ts` in the tsconfig's rootDir, else `src/`). */
  readonly out?: string;
}

function generator(options: SchemasPluginOptions): () => void {
  const tsconfig = resolve(options.tsconfig ?? 'tsconfig.json');
  const out = resolve(options.out ?? defaultOut(tsconfig));
  const extractor = new SchemaExtractor({ ...options, tsconfig });
  return () => {
    const manifest = extractor.extract();
    for (const warning of extractor.warnings) console.warn(`mcp-fw-schemas: warning: ${warning}`);
    writeManifest(out, manifest, { stamp: extractor.stamp(out) });
  };
}

/**
 * A vite (and vitest) plugin that writes the schemas module before each build and again when a
 * TypeScript file changes in watch mode, so `npx mcp-fw-schemas` need not be run by hand.
 *
 * @example
 * ```ts
 * // vite.config.ts
 * import { mcpFwSchemasVite } from '@mcp-fw/typescript';
 * export default defineConfig({ plugins: [mcpFwSchemasVite()] });
 * ```
 */
export function mcpFwSchemasVite(options: SchemasPluginOptions = {}) {
  const generate = generator(options);
  return {
    name: 'mcp-fw-schemas',
    enforce: 'pre' as const,
    /** Writes the schemas module before the build starts. */
    buildStart: generate,
    /** Rewrites the schemas module when a TypeScript file changes. */
    watchChange(id: string) {
      if (/\.(c|m)?tsx?$/.test(id) && !id.endsWith('schemas.gen.ts')) generate();
    },
  };
}

/**
 * An esbuild plugin that writes the schemas module at the start of each build (rebuilds in
 * watch mode included), before esbuild reads it.
 *
 * @example
 * ```ts
 * await esbuild.build({ entryPoints: ['src/main.ts'], bundle: true, plugins: [mcpFwSchemasEsbuild()] });
 * ```
 */
export function mcpFwSchemasEsbuild(options: SchemasPluginOptions = {}) {
  const generate = generator(options);
  return {
    name: 'mcp-fw-schemas',
    /** Writes the schemas module at the start of each build. */
    setup(build: { onStart(callback: () => void): void }) {
      build.onStart(generate);
    },
  };
}
