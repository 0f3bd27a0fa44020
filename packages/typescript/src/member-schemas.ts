import ts from 'typescript5';
import { paramDescription, summaryOf } from './jsdoc.js';
import type { JsonSchema, MemberSchemas } from './manifest.js';
import {
  acceptsUndefined,
  aliasKeywords,
  isCoreFile,
  SchemaBuilder,
  UnresolvedTypeError,
  withoutUndefined,
  type SchemaOptions,
} from './type-to-schema.js';

/** A decorated method the extractor found, with what its decorator already declares. */
export interface DecoratedMethod {
  readonly origin: string;
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly node: ts.MethodDeclaration;
  /** The decorator's options argument, if any. */
  readonly options?: ts.Expression;
  readonly declares: {
    readonly input: boolean;
    readonly output: boolean;
    readonly description: boolean;
  };
  /** A resource without `{variables}` takes no arguments, so it has no input schema. */
  readonly takesArguments: boolean;
}

/** A signature that cannot become a schema; the message names member, parameter, type and fix. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}

// Return types whose values the server turns into content itself: no output schema.
const CONTENT_TYPES = new Set([
  'CallToolResult',
  'ContentBlock',
  'TextContent',
  'ImageContent',
  'AudioContent',
  'EmbeddedResource',
  'ResourceLink',
]);

/** The schemas one method's signature and JSDoc give. */
export function memberSchemas(
  checker: ts.TypeChecker,
  method: DecoratedMethod,
  options: SchemaOptions,
): MemberSchemas {
  const { node, origin } = method;
  const result: MemberSchemas = {};
  const signature = checker.getSignatureFromDeclaration(node);
  const summary = signature ? summaryOf(signature.getDocumentationComment(checker)) : '';
  if (summary && !method.declares.description) result.description = summary;
  if (method.takesArguments && !method.declares.input) {
    Object.assign(result, inputOf(checker, method, options));
    if (method.kind !== 'tool') checkStringArguments(result.input!, method);
  }
  if (method.kind === 'tool' && !method.declares.output && signature) {
    const output = outputOf(checker, checker.getReturnTypeOfSignature(signature), origin, options);
    if (output) result.output = output;
  }
  return result;
}

function inputOf(
  checker: ts.TypeChecker,
  method: DecoratedMethod,
  options: SchemaOptions,
): Pick<MemberSchemas, 'input' | 'params' | 'dates'> {
  const { node, origin } = method;
  const builder = new SchemaBuilder(checker, options);
  // A `this` parameter is a type annotation, not an argument.
  const params = node.parameters.filter(
    (p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'),
  );
  const contextAt = params.findIndex((p) => isContext(checker, checker.getTypeAtLocation(p)));
  if (contextAt !== -1 && contextAt !== params.length - 1) {
    throw new SignatureError(
      `${origin}: the Context parameter must come last (it is parameter #${contextAt + 1} of ${params.length}). ` +
        'Fix: move it after the arguments.',
    );
  }
  const args = contextAt === -1 ? [...params] : params.slice(0, contextAt);
  const [first] = args;
  if (args.length === 1 && ts.isObjectBindingPattern(first.name)) {
    // One destructured parameter is the arguments object itself.
    const type = checker.getTypeAtLocation(first);
    const schema = convertParameter(
      builder,
      withoutUndefined(type),
      origin,
      'the arguments object',
    );
    if (schema.type !== 'object') {
      throw new SignatureError(
        `${origin}: the destructured arguments parameter has type '${checker.typeToString(type)}', not an object type. ` +
          'Fix: type it as an object, e.g. ({ a }: { a: number }).',
      );
    }
    return withDates({ input: root(schema, builder) }, builder);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const names: string[] = [];
  for (const param of args) {
    if (!ts.isIdentifier(param.name)) {
      throw new SignatureError(
        `${origin}: parameter #${params.indexOf(param) + 1} is destructured but is not the only argument parameter, so ` +
          'it has no name to put in the arguments object. Fix: give it a name, or take one destructured object.',
      );
    }
    const name = param.name.text;
    if (param.dotDotDotToken) {
      throw new SignatureError(
        `${origin}: parameter '${name}' is a rest parameter. Fix: take an array, e.g. ${name}: string[].`,
      );
    }
    const type = checker.getTypeAtLocation(param);
    const optional = Boolean(param.questionToken || param.initializer) || acceptsUndefined(type);
    const where = `parameter '${name}'`;
    let schema = convertParameter(
      builder,
      optional ? withoutUndefined(type) : type,
      origin,
      where,
      name,
    );
    schema = { ...schema, ...aliasKeywords(checker, param, `${origin} ${where}`) };
    const description = paramDescription(param);
    if (description) schema.description = description;
    const fallback = param.initializer && literalValue(param.initializer);
    if (fallback) schema.default = fallback.value;
    properties[name] = schema;
    if (!optional) required.push(name);
    names.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return withDates({ input: root(schema, builder), params: names }, builder);
}

function withDates<T extends MemberSchemas>(result: T, builder: SchemaBuilder): T {
  const dates = builder.datePaths;
  return dates ? { ...result, dates } : result;
}

// Prompt arguments and URI template variables travel as strings, and the server validates
// them as they come (no coercion): a number-typed one could never be satisfied.
function checkStringArguments(input: JsonSchema, method: DecoratedMethod): void {
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type === 'string') continue;
    const what = method.kind === 'prompt' ? 'prompt arguments' : 'URI template variables';
    throw new SignatureError(
      `${method.origin}, argument '${name}': ${what} are strings on the wire, so it must be typed string ` +
        `(or a union of string literals), not ${JSON.stringify(schema.type ?? 'a composite type')}. ` +
        'Fix: take a string and convert it in the method, or declare input with a coercing schema (z.coerce.number()).',
    );
  }
}

function convertParameter(
  builder: SchemaBuilder,
  type: ts.Type,
  origin: string,
  where: string,
  name?: string,
): JsonSchema {
  try {
    return name === undefined ? builder.convert(type, '') : builder.convertAt(name, type, '');
  } catch (error) {
    if (error instanceof UnresolvedTypeError) throw error;
    throw new SignatureError(`${origin}, ${where}: ${(error as Error).message}`);
  }
}

// No `$schema`: MCP takes 2020-12 as the dialect of a schema without one (2025-11-25), and the
// server compiles it with its 2020-12 validator; older clients read the same plain keywords.
function root(schema: JsonSchema, builder: SchemaBuilder): JsonSchema {
  const defs = builder.defs;
  return defs ? { ...schema, $defs: defs } : schema;
}

function outputOf(
  checker: ts.TypeChecker,
  returned: ts.Type,
  origin: string,
  options: SchemaOptions,
): JsonSchema | undefined {
  const type = checker.getAwaitedType(returned) ?? returned;
  if (!describesObject(checker, type)) return undefined;
  const builder = new SchemaBuilder(checker, options);
  try {
    const schema = builder.convert(withoutUndefined(type), '');
    return root(schema.type === undefined ? { type: 'object', ...schema } : schema, builder);
  } catch (error) {
    if (error instanceof UnresolvedTypeError) throw error;
    throw new SignatureError(`${origin}, return type: ${(error as Error).message}`);
  }
}

/**
 * Only object results become structured content (MCP's `structuredContent` is an object);
 * strings, numbers, arrays, content blocks and `void` are sent as content without a schema.
 */
function describesObject(checker: ts.TypeChecker, type: ts.Type): boolean {
  const parts = type.isUnion()
    ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)))
    : [type];
  if (parts.length === 0) return false;
  return parts.every((t) => {
    if (!(t.flags & ts.TypeFlags.Object) && !t.isIntersection()) return false;
    if (checker.isArrayType(t) || checker.isTupleType(t)) return false;
    const name = t.aliasSymbol?.getName() ?? t.getSymbol()?.getName();
    return !(name && CONTENT_TYPES.has(name));
  });
}

function isContext(_checker: ts.TypeChecker, type: ts.Type): boolean {
  const symbol = withoutUndefined(type).getSymbol();
  return (
    symbol?.getName() === 'Context' &&
    (symbol.declarations ?? []).some((d) => isCoreFile(d.getSourceFile().fileName))
  );
}

export { isCoreFile };

/** The value of a literal initializer (`= 5`, `= 'metric'`, `= -1`, `= true`), else undefined. */
function literalValue(node: ts.Expression): { value: unknown } | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { value: node.text };
  if (ts.isNumericLiteral(node)) return { value: Number(node.text) };
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { value: true };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { value: false };
  if (node.kind === ts.SyntaxKind.NullKeyword) return { value: null };
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  ) {
    return { value: -Number(node.operand.text) };
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => literalValue(e));
    return items.every((i) => i) ? { value: items.map((i) => i!.value) } : undefined;
  }
  return undefined;
}
