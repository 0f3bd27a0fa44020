import { createRequire } from 'node:module';
import type { SchemaLibraries, Zod3Convert, Zod4Convert } from './libraries.js';

// Node's variant of libraries.ts (package.json `imports`, `node` condition). Ajv and ajv-formats
// are about 95 CommonJS files, a visible part of a server's cold start: servers whose schemas are
// all Standard Schemas (zod, ...) never use them, so they load on the first JSON Schema compiled
// instead of at import. The zod converters are optional peers, loaded when a schema needs one.
const load = createRequire(import.meta.url);

// Each require keeps a literal specifier: `mcp-fw build --bundle` bundles those where they stand.
function optional<T>(loadModule: () => unknown, key: string): T | undefined {
  try {
    return (loadModule() as Record<string, T>)[key];
  } catch {
    return undefined;
  }
}

export const libraries: SchemaLibraries = {
  ajvDraft07: () => (load('ajv') as typeof import('ajv')).Ajv,
  ajvDraft2020: () => (load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020,
  addFormats: (ajv) =>
    (
      load('ajv-formats') as { default: (a: Parameters<SchemaLibraries['addFormats']>[0]) => void }
    ).default(ajv),
  interpreter: () =>
    (load('@cfworker/json-schema') as typeof import('@cfworker/json-schema')).Validator,
  zod4Convert: () => optional<Zod4Convert>(() => load('zod/v4/core'), 'toJSONSchema'),
  zod3Convert: () => optional<Zod3Convert>(() => load('zod-to-json-schema'), 'zodToJsonSchema'),
};
