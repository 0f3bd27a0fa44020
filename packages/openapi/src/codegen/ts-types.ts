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
  members(
    schema: Schema,
    indent: string,
    /** A schema to write a property's type from instead (its JSDoc still comes from `schema`). */
    typeOf: Readonly<Record<string, unknown>> = {},
  ): string {
    const props = (schema.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    let out = '';
    for (const [name, sub] of Object.entries(props)) {
      out += jsdoc(this.docLines(sub), indent);
      out += this.declare(
        `${indent}${propertyKey(name)}${required.has(name) ? '' : '?'}`,
        Object.hasOwn(typeOf, name) ? typeOf[name] : sub,
        indent,
        [],
      );
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

  /** Set while re-laying out a too-long line: an array of a union breaks its union too. */
  private breakArrays = false;

  private write(node: unknown, indent: string, stack: readonly string[]): string {
    return joinUnion(this.parts(node, indent, stack));
  }

  /** The members of the type's top-level union (one part when it is none), deduplicated. */
  private parts(node: unknown, indent: string, stack: readonly string[]): string[] {
    if (node === true || node === undefined) return [this.json()];
    if (node === false) return ['never'];
    if (typeof node !== 'object' || node === null) return [this.json()];
    const s = node as Schema;
    if (typeof s.$ref === 'string') {
      const name = this.named.get(s.$ref);
      if (name) return [name];
      if (stack.includes(s.$ref)) return [this.json()];
      return this.parts(resolvePointer(this.doc, s.$ref), indent, [...stack, s.$ref]);
    }
    const base = this.coreParts(s, indent, stack);
    return this.v30 && s.nullable === true ? unique([...base, 'null']) : base;
  }

  private coreParts(s: Schema, indent: string, stack: readonly string[]): string[] {
    if ('const' in s) return [literal(s.const) ?? this.json()];
    if (Array.isArray(s.enum) && s.enum.length > 0) {
      const literals = s.enum.map(literal);
      if (literals.every((l) => l !== undefined)) return unique(literals as string[]);
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0) {
      const parts = s.allOf.map((p) => this.write(p, indent, stack));
      const own = this.ownObject(s, indent, stack);
      return [
        [...parts, ...(own ? [own] : [])]
          .map((p) => (p.includes(' | ') && !p.startsWith('{') ? `(${p})` : p))
          .join(' & '),
      ];
    }
    const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0)
      return unique(alternatives.flatMap((p) => this.parts(p, indent, stack)));
    if (Array.isArray(s.type))
      return unique(s.type.flatMap((t) => this.coreParts({ ...s, type: t }, indent, stack)));
    return [this.core(s, indent, stack)];
  }

  /**
   * `key: T;` (or `export type Name = T;`), laid out as biome formats it: a union that does not
   * fit in 100 columns, or holds a multi-line object, gets one `| member` a line.
   */
  private declare(head: string, node: unknown, indent: string, stack: readonly string[]): string {
    const parts = this.parts(node, indent, stack);
    const single = joinUnion(parts);
    const separator = head.endsWith('=') ? ' ' : ': ';
    // One object type with only `null` beside it is kept around the object (biome "hugs" it).
    const hugged = isHugged(parts);
    const long = single.includes('\n') || `${head}${separator}${single};`.length > 100;
    if (parts.length > 1 && !hugged && long) {
      const inner = head.endsWith('=') ? '  ' : `${indent}  `;
      const broken = this.parts(node, `${inner}  `, stack);
      return `${head}${separator.trimEnd()}\n${broken.map((p) => `${inner}| ${unionMember(p, true)}`).join('\n')};\n`;
    }
    if (parts.length === 1 && long && !single.includes('\n')) {
      this.breakArrays = true;
      const again = this.parts(node, indent, stack)[0] as string;
      this.breakArrays = false;
      return `${head}${separator}${again};\n`;
    }
    return `${head}${separator}${single};\n`;
  }

  /** `export type Name = …;` for a schema. */
  alias(name: string, schema: unknown): string {
    return this.declare(`export type ${name} =`, schema, '', []);
  }

  private core(s: Schema, indent: string, stack: readonly string[]): string {
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
        if (s.items === undefined) return `${this.json()}[]`;
        const parts = this.parts(s.items, indent, stack);
        const long = this.breakArrays || parts.some((p) => p.includes('\n'));
        if (parts.length > 1 && !isHugged(parts) && long) {
          // As biome lays out a union inside `( … )[]` that does not fit on its line.
          const broken = this.parts(s.items, `${indent}    `, stack);
          return `(\n${broken.map((p) => `${indent}  | ${unionMember(p, true)}`).join('\n')}\n${indent})[]`;
        }
        const item = joinUnion(parts);
        return parts.length > 1 || isIntersection(item) ? `(${item})[]` : `${item}[]`;
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
      out += this.declare(
        `${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}`,
        sub,
        inner,
        stack,
      );
    }
    return `${out}${indent}}`;
  }

  private record(s: Schema, indent: string, stack: readonly string[]): string {
    const extra = s.additionalProperties;
    if (typeof extra !== 'object' || extra === null)
      return `Record<string, ${extra === false ? 'never' : this.json()}>`;
    const value = this.write(extra, indent, stack);
    if (!value.includes('\n')) return `Record<string, ${value}>`;
    // As biome lays out a multi-line type argument: one argument a line.
    return `Record<\n${indent}  string,\n${indent}  ${this.write(extra, `${indent}  `, stack)}\n${indent}>`;
  }

  private json(): string {
    this.usesJsonValue = true;
    return 'JsonValue';
  }
}

/** The declaration of `JsonValue`, the type of a value a schema does not constrain. */
export const JSON_VALUE_DECLARATION =
  '/** Any JSON value: where the document does not say what a value is. */\n' +
  'export type JsonValue =\n' +
  '  | string\n' +
  '  | number\n' +
  '  | boolean\n' +
  '  | null\n' +
  '  | JsonValue[]\n' +
  '  | { [key: string]: JsonValue };\n';

function literal(value: unknown): string | undefined {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return undefined;
}

/** One object type with only `null` beside it: biome keeps the union around the object. */
function isHugged(parts: readonly string[]): boolean {
  const object = (p: string) => p.startsWith('{') && p.endsWith('}');
  return parts.filter(object).length === 1 && parts.every((p) => p === 'null' || object(p));
}

/** An intersection at the top level (not one inside an object literal or parentheses). */
function isIntersection(type: string): boolean {
  return type.includes(' & ') && !type.startsWith('{') && !type.startsWith('(');
}

/** A union member: an intersection among others is parenthesised, as biome writes it. */
function unionMember(part: string, many: boolean): string {
  return many && isIntersection(part) ? `(${part})` : part;
}

function joinUnion(parts: readonly string[]): string {
  return parts.map((p) => unionMember(p, parts.length > 1)).join(' | ');
}

function unique(parts: readonly string[]): string[] {
  return [...new Set(parts)];
}
