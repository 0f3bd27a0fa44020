import { createRequire } from 'node:module';
import type * as Neutral from './yaml-parse.js';

// Node's variant of yaml-parse.ts (package.json `imports`, `node` condition). The `yaml` package
// is loaded when the first skill is read, not when core is imported: its CommonJS build (the one
// Node resolves) requires 'process', which an ESM bundle of a server (esbuild, format esm) cannot
// do at start-up, and most servers serve no skills.
let loaded: typeof import('yaml') | undefined;

export const parseYaml: typeof Neutral.parseYaml = (text, options) =>
  (loaded ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text, options);
