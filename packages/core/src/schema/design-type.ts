import type { JsonSchema } from './json-schema.js';

/**
 * JSON Schema for the constructors TypeScript writes into `design:paramtypes`. Only the simple
 * types are mapped; anything else (interfaces, classes, unions) has no reliable runtime shape.
 */
export function schemaFromDesignType(type: unknown): JsonSchema | undefined {
  switch (type) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array' };
    default:
      return undefined;
  }
}
