import { Tool } from '@mcp-fw/core';

/**
 * The suite's JSON Schema 2020-12 input (alpha.12): it must be advertised exactly as written,
 * `$schema`, `$defs`, `$anchor`, composition and conditionals included.
 */
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** A tool whose raw JSON Schema input is passed through verbatim. */
export class SchemaTools {
  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: SCHEMA_2020_12,
  })
  jsonSchema202012(args: Record<string, unknown>) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }
}
