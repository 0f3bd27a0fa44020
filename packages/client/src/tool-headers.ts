import { headerValue } from './transports/http-headers.js';
import type { Tool } from './types.js';

// SEP-2243 (2026-07-28 Streamable HTTP): a tool's input property annotated `x-mcp-header: Name`
// is mirrored into the `Mcp-Param-Name` header of each call, so that gateways can route on it.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIRRORED_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Why a tool's `x-mcp-header` annotations are invalid (an empty or non-token name, a type that
 * is not string/integer/boolean, a name used twice regardless of case), or undefined when they
 * are fine. Such a tool cannot be called correctly, so the client leaves it out of its lists.
 */
export function headerAnnotationProblem(tool: Tool): string | undefined {
  const properties = tool.inputSchema?.properties;
  if (!properties || typeof properties !== 'object') return undefined;
  const seen = new Set<string>();
  for (const [key, schema] of Object.entries(properties)) {
    if (!schema || typeof schema !== 'object' || !('x-mcp-header' in schema)) continue;
    const name = schema['x-mcp-header'];
    if (typeof name !== 'string' || name === '')
      return `property "${key}" has an empty x-mcp-header`;
    if (!TOKEN.test(name))
      return `property "${key}" has x-mcp-header "${name}", which is not a valid header name`;
    if (typeof schema.type !== 'string' || !MIRRORED_TYPES.has(schema.type))
      return `property "${key}" has x-mcp-header but type ${JSON.stringify(schema.type)} (only string, integer and boolean are mirrored)`;
    const folded = name.toLowerCase();
    if (seen.has(folded)) return `x-mcp-header "${name}" is used by two properties`;
    seen.add(folded);
  }
  return undefined;
}

/** The `Mcp-Param-*` headers of a call to `tool` with `args` (null and absent values omitted). */
export function paramHeaders(
  tool: Tool,
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> | undefined {
  const properties = tool.inputSchema?.properties;
  if (!properties || !args) return undefined;
  let headers: Record<string, string> | undefined;
  for (const [key, schema] of Object.entries(properties)) {
    const name = schema?.['x-mcp-header'];
    const value = args[key];
    if (typeof name !== 'string' || value === null || value === undefined) continue;
    headers ??= {};
    headers[`mcp-param-${name.toLowerCase()}`] =
      typeof value === 'string' ? headerValue(value) : String(value);
  }
  return headers;
}
