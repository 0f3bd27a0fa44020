import type { JsonSchema } from '../schema/index.js';
import type { ToolDefinition } from './tool-definition.js';

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
// A description becomes a /** */ comment: nothing in it may close the comment early.
const comment = (text: unknown) =>
  typeof text === 'string' && text.trim() !== ''
    ? `/** ${text.trim().replaceAll('*/', '* /').replace(/\s+/g, ' ')} */ `
    : '';

/**
 * A TypeScript type for a JSON Schema, as a model reads it: objects with their (optional)
 * properties, arrays, unions, enums and consts, local `$ref`s followed a few levels deep;
 * anything it cannot say precisely is `unknown` (never narrower than the schema).
 */
export function typeOfSchema(schema: unknown, root: unknown = schema, depth = 0): string {
  if (schema === true || schema === undefined || schema === null || typeof schema !== 'object')
    return 'unknown';
  if (depth > 6) return 'unknown';
  const s = schema as Schema;
  const next = (sub: unknown) => typeOfSchema(sub, root, depth + 1);
  if (typeof s.$ref === 'string') {
    const path = s.$ref.startsWith('#/') ? s.$ref.slice(2).split('/') : undefined;
    let target: unknown = root;
    for (const part of path ?? [])
      target = (target as Schema | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    return path && target !== undefined ? next(target) : 'unknown';
  }
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never';
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map(next))].join(' | ');
  if (Array.isArray(s.type))
    return [...new Set(s.type.map((t) => next({ ...s, type: t })))].join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = next(s.items);
      return /[ |]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
  }
  if (s.type === 'object' || s.properties !== undefined) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = new Set((s.required ?? []) as string[]);
    const fields = Object.entries(props).map(
      ([name, sub]) =>
        `${comment((sub as Schema | undefined)?.description)}${key(name)}${required.has(name) ? '' : '?'}: ${next(sub)}`,
    );
    const extra = s.additionalProperties;
    if (fields.length === 0)
      return extra === false
        ? '{}'
        : `Record<string, ${extra === undefined ? 'unknown' : next(extra)}>`;
    return `{ ${fields.join('; ')} }`;
  }
  return 'unknown';
}

/**
 * The tools as the methods of one `tools` object, for a script-writing model: each with its
 * description, its arguments' type (from the input schema) and what it resolves with (the
 * output schema's type, or `unknown` for a tool without one).
 *
 * @example
 * ```ts
 * toolSignatures(tools);
 * // declare const tools: {
 * //   /** Closes an issue *\/ close_issue(args: { owner: string; issue_number: number }): Promise<{ closed: number }>;
 * // };
 * ```
 */
export function toolSignatures(tools: readonly ToolDefinition[]): string {
  const lines = tools.map((t) => {
    const input = t.inputSchema as JsonSchema;
    const args = typeOfSchema(input);
    const optional = ((input.required ?? []) as string[]).length === 0 ? '?' : '';
    const output = t.outputSchema ? typeOfSchema(t.outputSchema) : 'unknown';
    return `  ${comment(t.description)}${key(t.name)}(args${optional}: ${args}): Promise<${output}>;`;
  });
  return `declare const tools: {\n${lines.join('\n')}\n};`;
}
