import { libraries } from '#schema-libraries';
import { isPlainObject, type JsonSchema } from './json-schema.js';
import { isStandardSchema } from './standard-schema.js';

/** Thrown when a value cannot be turned into JSON Schema; the message says why and what to do. */
export class SchemaConversionError extends Error {
  override name = 'SchemaConversionError';
}

export type SchemaIo = 'input' | 'output';

/**
 * Turns a schema source into JSON Schema, once, at startup. Order (toolchain.md §6): a Standard
 * Schema that converts itself, zod 4 without the converter (< 4.2), zod 3 through
 * zod-to-json-schema, and finally a plain JSON Schema object, returned as given.
 */
export function toJsonSchema(source: unknown, io: SchemaIo): JsonSchema {
  if (isStandardSchema(source)) {
    const converter = source['~standard'].jsonSchema;
    if (converter) return converter[io]({ target: 'draft-2020-12' });
  }
  if (typeof source === 'object' && source !== null) {
    if ('_zod' in source) return fromZod4Core(source, io);
    if ('_def' in source) return fromZod3(source);
    if (isPlainObject(source)) return source;
  }
  throw new SchemaConversionError(
    isStandardSchema(source)
      ? `the ${source['~standard'].vendor} schema has no JSON Schema converter (~standard.jsonSchema); ` +
          'pass a JSON Schema object instead, or a library that implements StandardJSONSchemaV1'
      : 'expected a zod schema, a Standard Schema or a JSON Schema object',
  );
}

function fromZod4Core(schema: object, io: SchemaIo): JsonSchema {
  const convert = libraries.zod4Convert();
  if (!convert) {
    throw new SchemaConversionError(
      'this zod schema (zod/mini, or zod before 4.2) converts to JSON Schema through ' +
        'zod/v4/core, which could not be loaded: install zod beside @mcp-fw/core, use zod 4.2 ' +
        'or later (its schemas convert themselves), or pass a JSON Schema object instead',
    );
  }
  return convert(schema, { io, unrepresentable: 'any' });
}

function fromZod3(schema: object): JsonSchema {
  const convert = libraries.zod3Convert();
  if (!convert) {
    throw new SchemaConversionError(
      'zod 3 schemas need the zod-to-json-schema package: npm install zod-to-json-schema',
    );
  }
  return convert(schema, { $refStrategy: 'none' });
}
