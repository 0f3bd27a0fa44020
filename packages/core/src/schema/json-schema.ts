/** A JSON Schema document, as plain data. */
export type JsonSchema = { [key: string]: unknown };

export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

export function isDraft07(schema: JsonSchema): boolean {
  const dialect = schema.$schema;
  return typeof dialect === 'string' && /draft-0[4-7]/.test(dialect);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
