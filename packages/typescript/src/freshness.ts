// `@mcp-fw/typescript/freshness`: whether a generated schemas module matches its sources,
// without loading the TypeScript compiler (what `mcp-fw start` asks on every start).
export { schemasFreshness, type Freshness } from './stamp.js';
export { defaultOut } from './write.js';
