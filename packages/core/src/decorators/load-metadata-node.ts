import { createRequire } from 'node:module';

// Node's variant of load-metadata.ts (package.json `imports`, `node` condition). reflect-metadata
// is CommonJS: loaded with require instead of `import`, Node skips scanning it for named exports
// (cjs-module-lexer), which costs start-up time and memory.
createRequire(import.meta.url)('reflect-metadata');
