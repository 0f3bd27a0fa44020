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
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword this tool demonstrates.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/**
 * SEP-2243: a string argument mirrored in an HTTP header. Over 2026-07-28 HTTP, a call must carry
 * `Mcp-Param-Region` equal to `arguments.region` (`=?base64?…?=` when not visible ASCII).
 */
const X_MCP_HEADER = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      description: 'A region, mirrored in the Mcp-Param-Region header',
      'x-mcp-header': 'Region',
    },
    query: { type: 'string', description: 'Not mirrored in any header' },
  },
  required: ['region'],
};

/** Tools whose raw JSON Schema input is passed through verbatim. */
export class SchemaTools {
  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: SCHEMA_2020_12,
  })
  jsonSchema202012(args: Record<string, unknown>) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }

  @Tool({
    name: 'test_x_mcp_header',
    description: 'Echoes a region that is also sent as the Mcp-Param-Region header',
    input: X_MCP_HEADER,
  })
  xMcpHeader({ region }: { region: string }) {
    return `Region: ${region}`;
  }
}
