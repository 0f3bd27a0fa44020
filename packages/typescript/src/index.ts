// Build-time schema extraction for mcp-fw: TypeScript signatures and JSDoc → JSON Schema.
// Uses the TypeScript 5.9 compiler API (TypeScript 7 has no JS API); nothing here runs in a server.
export {
  extractSchemas,
  manifestOf,
  SchemaExtractor,
  ExtractionError,
  type ExtractOptions,
} from './extract.js';
export { SignatureError } from './member-schemas.js';
export { UnrepresentableTypeError, type SchemaOptions } from './type-to-schema.js';
export { defaultOut, renderManifestModule, writeManifest, type WriteOptions } from './write.js';
export {
  readStamp,
  renderStamp,
  schemasFreshness,
  sourceStamp,
  type Freshness,
  type SourceStamp,
} from './stamp.js';
export { main } from './cli.js';
export { mcpFwSchemasVite, mcpFwSchemasEsbuild, type SchemasPluginOptions } from './plugins.js';
export type { JsonSchema, MemberSchemas, SchemaManifest } from './manifest.js';
