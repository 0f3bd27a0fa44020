import ts from 'typescript5';
import { unknownTagWarning } from './doc-warnings.js';
import { docKeywords, summaryOf } from './jsdoc.js';
import type { JsonSchema } from './manifest.js';

/** A type JSON cannot carry; the extractor adds the member and parameter to the message. */
export class UnrepresentableTypeError extends Error {
  override name = 'UnrepresentableTypeError';
  constructor(
    /** Where inside the parameter's type, e.g. `.address.zip`; empty for the type itself. */
    readonly path: string,
    readonly typeText: string,
    readonly reason: string,
    readonly fix: string,
  ) {
    super(`${path ? `${path.slice(1)}: ` : ''}type '${typeText}' ${reason}. Fix: ${fix}`);
  }
}

/** How types become schemas, e.g. whether `any` is allowed. */
export interface SchemaOptions {
  /** Accept `any` and `unknown` as "any JSON value" (`{}`) instead of failing. */
  readonly allowAny?: boolean;
  /**
   * Called with each warning: a JSDoc tag that sets nothing (`@minimun 1`), a `@param` line that
   * names no parameter. Each names the member, the tag and its `file:line`.
   */
  readonly onWarning?: (warning: string) => void;
  /** @internal How an unresolved type is reported: as a failure (default) or to retry. */
  readonly unresolved?: 'fail' | 'signal';
  /** @internal The member being converted (`Class.method`) and the project directory, for warnings. */
  readonly member?: { readonly origin: string; readonly dir: string };
}

/**
 * A type the compiler could not resolve. The first pass leaves out global type packages
 * (`types: []`, half the parse time: see SchemaExtractor); this tells it to run again with them.
 */
export class UnresolvedTypeError extends Error {
  override name = 'UnresolvedTypeError';
}

const DEF_NAME = /[^A-Za-z0-9_.-]+/g;

/**
 * Converts checker types to JSON Schema 2020-12. One builder serves one root schema: types met
 * again while they are being converted (recursion) become `$defs` entries referenced by `$ref`.
 */
export class SchemaBuilder {
  readonly #checker: ts.TypeChecker;
  readonly #options: SchemaOptions;
  readonly #converting: ts.Type[] = [];
  readonly #recursive = new Set<ts.Type>();
  readonly #names = new Map<ts.Type, string>();
  readonly #defs: Record<string, JsonSchema> = {};
  // Where Date values sit (property names, '*' for every item, tuple indexes), so the server
  // can hand the method Dates rather than the strings JSON carries. Not inside unions where
  // another member also takes a string (the string may be meant as one), nor inside recursive
  // types (unbounded paths).
  readonly #segments: (string | number)[] = [];
  readonly #dates: (string | number)[][] = [];
  #ambiguous = 0;

  constructor(checker: ts.TypeChecker, options: SchemaOptions = {}) {
    this.#checker = checker;
    this.#options = options;
  }

  /** The paths of the Date values converted so far. */
  get datePaths(): (string | number)[][] | undefined {
    return this.#dates.length ? this.#dates : undefined;
  }

  /** Converts `type` as the value at `segment` below the current path. */
  convertAt(segment: string | number, type: ts.Type, path: string): JsonSchema {
    this.#segments.push(segment);
    try {
      return this.convert(type, path);
    } finally {
      this.#segments.pop();
    }
  }

  #unpathed<T>(fn: () => T): T {
    this.#ambiguous++;
    try {
      return fn();
    } finally {
      this.#ambiguous--;
    }
  }

  /** The `$defs` gathered so far, for the root schema. */
  get defs(): Record<string, JsonSchema> | undefined {
    return Object.keys(this.#defs).length ? this.#defs : undefined;
  }

  /** A root schema: the converted type with the `$defs` it needs. */
  root(type: ts.Type, extra: JsonSchema = {}): JsonSchema {
    const schema = { ...this.convert(type, ''), ...extra };
    return this.defs ? { ...schema, $defs: this.defs } : schema;
  }

  convert(type: ts.Type, path: string): JsonSchema {
    if (isCoreInteger(type)) return { type: 'integer' };
    const f = type.flags;
    if (f & ts.TypeFlags.Any && (type as { intrinsicName?: string }).intrinsicName === 'error') {
      if (this.#options.unresolved === 'signal') throw new UnresolvedTypeError(path);
      throw this.#fail(
        type,
        path,
        'could not be resolved by the compiler',
        'fix the compile error (run tsc) or import the type',
      );
    }
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
      if (this.#options.allowAny) return {};
      throw this.#fail(
        type,
        path,
        'says nothing about its values',
        'give it a type (or allow any with { allowAny: true })',
      );
    }
    if (f & ts.TypeFlags.BigIntLike) {
      throw this.#fail(
        type,
        path,
        'has no JSON form (JSON numbers are doubles)',
        'use number, or a string of digits',
      );
    }
    if (f & ts.TypeFlags.ESSymbolLike)
      throw this.#fail(type, path, 'has no JSON form', 'use a string');
    if (f & ts.TypeFlags.Never)
      throw this.#fail(type, path, 'has no values', 'give it a type that has values');
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) {
      throw this.#fail(
        type,
        path,
        'has no JSON form on its own',
        'make the property optional instead',
      );
    }
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.StringLiteral)
      return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral)
      return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral)
      return {
        type: 'boolean',
        const: (type as { intrinsicName?: string }).intrinsicName === 'true',
      };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
    if (type.isUnion()) return this.#union(type, path);
    if (f & ts.TypeFlags.Object || type.isIntersection()) return this.#named(type, path);
    if (f & ts.TypeFlags.NonPrimitive) return { type: 'object' };
    throw this.#fail(type, path, 'cannot be described in JSON Schema', 'use plain data types');
  }

  #union(type: ts.UnionType, path: string): JsonSchema {
    let members = type.types.filter(
      (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
    );
    // `boolean` is the union true | false: keep it whole.
    const literals = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const hasBoolean = literals.length === 2;
    if (hasBoolean) members = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
    if (members.length === 0 && hasBoolean) return { type: 'boolean' };
    if (members.length === 1 && !hasBoolean) return this.convert(members[0], path);
    // A union of literals of one kind (enums, 'a' | 'b') is an enum.
    const kind = literalKind(members);
    if (kind && !hasBoolean)
      return { type: kind, enum: members.map((t) => (t as ts.LiteralType).value) };
    // `Date | null` and the like: no other member takes a string, so a string is the date.
    const date = members.find(isLibDate);
    const dateIsUnambiguous =
      date !== undefined && members.every((t) => t === date || t.flags & NOT_STRING);
    const schemas = members.map((t) =>
      dateIsUnambiguous && t === date
        ? this.convert(t, path)
        : this.#unpathed(() => this.convert(t, path)),
    );
    if (hasBoolean) schemas.push({ type: 'boolean' });
    // Plain types only ('string' | 'null' …): one `type` array, as zod writes nullable values.
    if (schemas.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string')) {
      return { type: schemas.map((s) => s.type) };
    }
    return { anyOf: schemas };
  }

  /** Object types, with recursion through `$defs`. */
  #named(type: ts.Type, path: string): JsonSchema {
    const seen = this.#converting.indexOf(type);
    if (seen !== -1) {
      this.#recursive.add(type);
      return { $ref: `#/$defs/${this.#nameOf(type)}` };
    }
    this.#converting.push(type);
    const datesBefore = this.#dates.length;
    let schema: JsonSchema;
    try {
      schema = this.#object(type, path);
    } finally {
      this.#converting.pop();
    }
    if (!this.#recursive.has(type)) return schema;
    this.#dates.length = datesBefore;
    const name = this.#nameOf(type);
    this.#defs[name] = schema;
    return { $ref: `#/$defs/${name}` };
  }

  #nameOf(type: ts.Type): string {
    let name = this.#names.get(type);
    if (name) return name;
    const base =
      this.#checker
        .typeToString(type)
        .replace(DEF_NAME, '_')
        .replace(/^_+|_+$/g, '') || 'Type';
    name = base;
    for (let n = 2; [...this.#names.values()].includes(name); n++) name = `${base}${n}`;
    this.#names.set(type, name);
    return name;
  }

  #object(type: ts.Type, path: string): JsonSchema {
    const checker = this.#checker;
    if (type.isIntersection() && !type.types.every((t) => t.flags & ts.TypeFlags.Object)) {
      return this.#unpathed(() => ({ allOf: type.types.map((t) => this.convert(t, path)) }));
    }
    const symbolName = type.getSymbol()?.getName();
    if (isLibDate(type)) {
      if (!this.#ambiguous) this.#dates.push([...this.#segments]);
      return { type: 'string', format: 'date-time' };
    }
    if (checker.isTupleType(type)) return this.#tuple(type as ts.TupleTypeReference, path);
    if (checker.isArrayType(type)) {
      const [item] = checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: this.convertAt('*', item, `${path}[]`) };
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      throw this.#fail(
        type,
        path,
        'is a function, which JSON cannot carry',
        'take the data the function would compute as plain values',
      );
    }
    if (symbolName && isLibType(type) && NO_JSON_FORM.has(symbolName)) {
      throw this.#fail(
        type,
        path,
        `is a ${symbolName}, which JSON cannot carry`,
        NO_JSON_FORM.get(symbolName)!,
      );
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const name = property.getName();
      const where = `${path}.${name}`;
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (
        property.flags & ts.SymbolFlags.Method ||
        (declaration && ts.isMethodDeclaration(declaration))
      ) {
        throw this.#fail(
          type,
          path,
          `has the method ${name}(), so it is a class instance rather than data JSON can carry`,
          'declare an interface with only its data fields and take that',
        );
      }
      const propertyType = checker.getTypeOfSymbol(property);
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      const docs = docKeywords(
        summaryOf(property.getDocumentationComment(checker)),
        property.getJsDocTags(checker),
        where.replace(/^\./, ''),
      );
      const own = this.convertAt(
        name,
        optional ? withoutUndefined(propertyType) : propertyType,
        where,
      );
      const aliasDocs = declaration ? aliasKeywords(checker, declaration, where) : {};
      if (declaration) this.#warnUnknownTags(declaration, name);
      properties[name] = { ...own, ...aliasDocs, ...docs };
      if (!optional && !acceptsUndefined(propertyType)) required.push(name);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    const index = checker
      .getIndexInfosOfType(type)
      .find((info) => info.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral));
    if (index) {
      schema.additionalProperties = this.convertAt('*', index.type, `${path}[key]`);
      if (!Object.keys(properties).length) delete schema.properties;
    }
    return schema;
  }

  #tuple(type: ts.TupleTypeReference, path: string): JsonSchema {
    const elements = this.#checker.getTypeArguments(type);
    const flags = type.target.elementFlags;
    const prefixItems: JsonSchema[] = [];
    let rest: JsonSchema | undefined;
    let minItems = 0;
    elements.forEach((element, i) => {
      if (flags[i] & ts.ElementFlags.Variable) {
        rest = this.#unpathed(() => this.convert(element, `${path}[${i}]`));
        return;
      }
      prefixItems.push(this.convertAt(i, element, `${path}[${i}]`));
      if (flags[i] & ts.ElementFlags.Required) minItems = i + 1;
    });
    const schema: JsonSchema = { type: 'array', prefixItems, items: rest ?? false, minItems };
    if (!rest) schema.maxItems = prefixItems.length;
    return schema;
  }

  // Only the project's own declarations: a library's JSDoc is not the user's to fix.
  #warnUnknownTags(declaration: ts.Declaration, name: string): void {
    const { onWarning, member } = this.#options;
    const file = declaration.getSourceFile().fileName;
    if (
      !onWarning ||
      !member ||
      /[\\/]node_modules[\\/]/.test(file) ||
      !file.startsWith(member.dir)
    )
      return;
    for (const tag of ts.getJSDocTags(declaration)) {
      const warning = unknownTagWarning(tag, `${member.origin}, property ${name}`, member.dir);
      if (warning) onWarning(warning);
    }
  }

  #fail(type: ts.Type, path: string, reason: string, fix: string): UnrepresentableTypeError {
    return new UnrepresentableTypeError(path, this.#checker.typeToString(type), reason, fix);
  }
}

const NO_JSON_FORM = new Map([
  ['Map', 'use Record<string, V> (an object) or an array of [key, value] tuples'],
  ['Set', 'use an array'],
  ['WeakMap', 'use Record<string, V>'],
  ['WeakSet', 'use an array'],
  ['Promise', 'take the resolved value'],
  ['RegExp', 'take the pattern as a string'],
  ['Error', 'take the message as a string'],
  ['Uint8Array', 'take base64 text as a string'],
  ['ArrayBuffer', 'take base64 text as a string'],
]);

function isLibType(type: ts.Type): boolean {
  const declarations = type.getSymbol()?.declarations ?? [];
  return declarations.some((d) => isLibFile(d.getSourceFile().fileName));
}

function isLibFile(file: string): boolean {
  return (
    /[\\/]typescript5?[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file) ||
    /[\\/]@types[\\/]node[\\/]/.test(file)
  );
}

function literalKind(types: readonly ts.Type[]): 'string' | 'number' | undefined {
  if (types.length < 2) return undefined;
  if (types.every((t) => t.flags & ts.TypeFlags.StringLiteral)) return 'string';
  if (types.every((t) => t.flags & ts.TypeFlags.NumberLiteral)) return 'number';
  return undefined;
}

export function acceptsUndefined(type: ts.Type): boolean {
  if (
    type.flags &
    (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Any | ts.TypeFlags.Unknown)
  )
    return true;
  return (
    type.isUnion() && type.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))
  );
}

export function withoutUndefined(type: ts.Type): ts.Type {
  if (!type.isUnion()) return type;
  const rest = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
  return rest.length === 1 ? rest[0] : type;
}

/**
 * The JSDoc of the type alias, interface or enum a declaration names (`latitude: Latitude`,
 * where `/** @minimum -90 *\/ type Latitude = number`): primitive aliases leave no trace on the
 * checker's type, so they are read from the declaration's type annotation. The declaration's
 * own JSDoc, applied after, wins.
 */
export function aliasKeywords(
  checker: ts.TypeChecker,
  declaration: ts.Node,
  where: string,
): JsonSchema {
  const typeNode = (declaration as { type?: ts.TypeNode }).type;
  if (!typeNode || !ts.isTypeReferenceNode(typeNode)) return {};
  let symbol = checker.getSymbolAtLocation(typeNode.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  if (
    !symbol ||
    !(symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface | ts.SymbolFlags.Enum))
  )
    return {};
  // The standard library's aliases (Record, Partial …) and core's (Integer) document themselves,
  // not the property.
  if (
    (symbol.declarations ?? []).some(
      (d) => isLibFile(d.getSourceFile().fileName) || isCoreFile(d.getSourceFile().fileName),
    )
  )
    return {};
  return docKeywords(
    summaryOf(symbol.getDocumentationComment(checker)),
    symbol.getJsDocTags(checker),
    where,
  );
}

/** The members a JSON string can never match, beside which a `Date` member is unambiguous. */
const NOT_STRING = ts.TypeFlags.Null | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike;

/**
 * `Integer` from `@mcp-fw/core` (`number & {}`): the compiler keeps the alias on the type, in
 * arrays, unions and properties alike, so `count: Integer` becomes `{ "type": "integer" }`.
 */
function isCoreInteger(type: ts.Type): boolean {
  const alias = type.aliasSymbol;
  return (
    alias?.getName() === 'Integer' &&
    (alias.declarations ?? []).some((d) => isCoreFile(d.getSourceFile().fileName))
  );
}

/** A declaration inside `@mcp-fw/core`, installed or as this monorepo's sources. */
export function isCoreFile(fileName: string): boolean {
  return /[\\/](@mcp-fw[\\/]core|packages[\\/]core)[\\/]/.test(fileName);
}

function isLibDate(type: ts.Type): boolean {
  return type.getSymbol()?.getName() === 'Date' && isLibType(type);
}
