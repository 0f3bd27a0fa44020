import { KNOWN_FORMATS, resolvePointer } from '../deref.js';
import { jsdoc, propertyKey, quote } from './identifiers.js';

type Schema = Record<string, unknown>;

// Keywords @mcp-fw/typescript reads back from JSDoc tags into the JSON Schema.
const TAGGED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
] as const;

/**
 * Writes OpenAPI schemas as plain TypeScript types whose JSDoc carries the descriptions and
 * validation keywords, so `@mcp-fw/typescript` derives the same JSON Schema back from them.
 * A `$ref` to a named schema (`#/components/schemas/Pet`) is its type's name; any other `$ref`
 * is inlined, and one that loops back while inlining is `JsonValue`.
 */
export class TypeWriter {
  /** Whether some type needed `JsonValue` (declared by the caller). */
  usesJsonValue = false;
  /** Whether some type needed `Integer` (imported by the caller). */
  usesInteger = false;

  constructor(
    private readonly doc: unknown,
    private readonly v30: boolean,
    /** Type names by `$ref`. */
    private readonly named: ReadonlyMap<string, string>,
  ) {}

  /** The TypeScript type of `schema`, its object literals indented from `indent`. */
  type(schema: unknown, indent = ''): string {
    return this.write(schema, indent, []);
  }

  /** The JSDoc lines of a property: its description and validation keywords. */
  docLines(schema: unknown): string[] {
    const s = this.deref(schema);
    if (!s) return [];
    const lines: string[] = [];
    if (typeof s.description === 'string' && s.description.trim()) lines.push(s.description.trim());
    for (const key of TAGGED) {
      const value = s[key];
      if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        // 3.0 says exclusiveMinimum: true next to minimum.
        const limit = key === 'exclusiveMinimum' ? s.minimum : s.maximum;
        if (value === true && typeof limit === 'number') lines.push(`@${key} ${limit}`);
        else if (typeof value === 'number') lines.push(`@${key} ${value}`);
        continue;
      }
      if (key === 'minimum' && s.exclusiveMinimum === true) continue;
      if (key === 'maximum' && s.exclusiveMaximum === true) continue;
      if (typeof value === 'number' || (key === 'pattern' && typeof value === 'string'))
        lines.push(`@${key} ${String(value)}`);
    }
    if (typeof s.format === 'string' && KNOWN_FORMATS.has(s.format) && s.format !== 'binary')
      lines.push(`@format ${s.format}`);
    if (s.default !== undefined) lines.push(`@default ${JSON.stringify(s.default)}`);
    if (s.deprecated === true) lines.push('@deprecated');
    return lines;
  }

  /** An object type's body: one member per property, each with its JSDoc. */
  members(schema: Schema, indent: string): string {
    const props = (schema.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    let out = '';
    for (const [name, sub] of Object.entries(props)) {
      out += jsdoc(this.docLines(sub), indent);
      out += `${indent}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${this.write(sub, indent, [])};\n`;
    }
    return out;
  }

  /** Whether the schema (followed through `$ref`s) describes an object with named properties. */
  isObject(schema: unknown): boolean {
    const s = this.deref(schema);
    if (!s) return false;
    if (Array.isArray(s.allOf)) return s.allOf.every((p) => this.isObject(p));
    if (s.nullable === true || Array.isArray(s.type) || s.oneOf || s.anyOf) return false;
    return s.type === 'object' || (s.type === undefined && s.properties !== undefined);
  }

  /** The schema a `$ref` chain ends at (itself when it is none). */
  deref(schema: unknown): Schema | undefined {
    const seen = new Set<string>();
    let s = schema;
    while (typeof s === 'object' && s !== null && typeof (s as Schema).$ref === 'string') {
      const ref = (s as Schema).$ref as string;
      if (seen.has(ref)) return undefined;
      seen.add(ref);
      s = resolvePointer(this.doc, ref);
    }
    return typeof s === 'object' && s !== null ? (s as Schema) : undefined;
  }

  private write(node: unknown, indent: string, stack: readonly string[]): string {
    if (node === true || node === undefined) return this.json();
    if (node === false) return 'never';
    if (typeof node !== 'object' || node === null) return this.json();
    const s = node as Schema;
    if (typeof s.$ref === 'string') {
      const name = this.named.get(s.$ref);
      if (name) return name;
      if (stack.includes(s.$ref)) return this.json();
      return this.write(resolvePointer(this.doc, s.$ref), indent, [...stack, s.$ref]);
    }
    const nullable = this.v30 && s.nullable === true;
    const base = this.core(s, indent, stack);
    return nullable && base !== 'null' ? union([base, 'null']) : base;
  }

  private core(s: Schema, indent: string, stack: readonly string[]): string {
    if ('const' in s) return literal(s.const) ?? this.json();
    if (Array.isArray(s.enum) && s.enum.length > 0) {
      const literals = s.enum.map(literal);
      if (literals.every((l) => l !== undefined)) return union(literals as string[]);
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0) {
      const parts = s.allOf.map((p) => this.write(p, indent, stack));
      const own = this.ownObject(s, indent, stack);
      return [...parts, ...(own ? [own] : [])]
        .map((p) => (p.includes(' | ') && !p.startsWith('{') ? `(${p})` : p))
        .join(' & ');
    }
    const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0)
      return union(alternatives.map((p) => this.write(p, indent, stack)));
    if (Array.isArray(s.type))
      return union(s.type.map((t) => this.core({ ...s, type: t }, indent, stack)));
    switch (s.type) {
      case 'string':
        return 'string';
      case 'number':
        return 'number';
      case 'integer':
        this.usesInteger = true;
        return 'Integer';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = s.items === undefined ? this.json() : this.write(s.items, indent, stack);
        return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
      }
      case 'object':
        return this.ownObject(s, indent, stack) ?? this.record(s, indent, stack);
      default:
        if (s.properties !== undefined)
          return this.ownObject(s, indent, stack) ?? this.record(s, indent, stack);
        if (s.items !== undefined) return this.core({ ...s, type: 'array' }, indent, stack);
        return this.json();
    }
  }

  private ownObject(s: Schema, indent: string, stack: readonly string[]): string | undefined {
    const props = s.properties as Record<string, unknown> | undefined;
    if (!props || Object.keys(props).length === 0) return undefined;
    const inner = `${indent}  `;
    const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    let out = '{\n';
    for (const [name, sub] of Object.entries(props)) {
      out += jsdoc(this.docLines(sub), inner);
      out += `${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${this.write(sub, inner, stack)};\n`;
    }
    return `${out}${indent}}`;
  }

  private record(s: Schema, indent: string, stack: readonly string[]): string {
    const extra = s.additionalProperties;
    const value =
      typeof extra === 'object' && extra !== null
        ? this.write(extra, indent, stack)
        : extra === false
          ? 'never'
          : this.json();
    return `Record<string, ${value}>`;
  }

  private json(): string {
    this.usesJsonValue = true;
    return 'JsonValue';
  }
}

/** The declaration of `JsonValue`, the type of a value a schema does not constrain. */
export const JSON_VALUE_DECLARATION =
  '/** Any JSON value: where the document does not say what a value is. */\n' +
  'export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };\n';

function literal(value: unknown): string | undefined {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return undefined;
}

function union(parts: readonly string[]): string {
  return [...new Set(parts)].join(' | ');
}
