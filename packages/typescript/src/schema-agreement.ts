import ts from 'typescript5';
import type { DecoratedMethod } from './member-schemas.js';

/**
 * Where a method declares its schema explicitly, its signature must take what the schema
 * gives and return what the output schema accepts. Parameter decorators are invisible to the
 * type system, so `@Arg('n', z.string()) n: number` compiles; this finds it at build time and
 * names both types. Only typed schemas (Standard Schema: zod, valibot, arktype …) are checked:
 * a raw JSON Schema object carries no TypeScript type.
 */
export function schemaAgreement(checker: ts.TypeChecker, method: DecoratedMethod): string[] {
  const problems: string[] = [];
  const { node, origin } = method;
  const show = (type: ts.Type) =>
    checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  const optionsType = method.options && checker.getTypeAtLocation(method.options);
  const args = node.parameters.filter((p) => !isContextParameter(checker, p));

  const input = optionsType && schemaSide(checker, optionsType.getProperty('input'), 'output');
  const [first] = args;
  if (input && first && !checker.isTypeAssignableTo(input, checker.getTypeAtLocation(first))) {
    const takes = checker.getTypeAtLocation(first);
    const fields = fieldDifferences(checker, input, takes);
    problems.push(
      fields.length
        ? `${method.kind} ${origin}: its input schema and ${describe(first)} disagree: ${fields.join('; ')}. ` +
            "Fix: type the parameter as the schema's output (z.infer<typeof schema>), or correct the schema."
        : `${method.kind} ${origin}: its input schema gives '${show(input)}', which ${describe(first)} of type ` +
            `'${show(takes)}' does not accept. Fix: type the parameter as the schema's ` +
            'output (z.infer<typeof schema>), or correct the schema.',
    );
  }

  for (const param of node.parameters) {
    for (const decorator of ts.getDecorators(param) ?? []) {
      const call = decorator.expression;
      if (!ts.isCallExpression(call) || !isArgCall(checker, call) || call.arguments.length < 2)
        continue;
      const gives = schemaSide(checker, checker.getTypeAtLocation(call.arguments[1]), 'output');
      const takes = checker.getTypeAtLocation(param);
      if (gives && !checker.isTypeAssignableTo(gives, takes)) {
        const name = ts.isStringLiteralLike(call.arguments[0])
          ? call.arguments[0].text
          : describe(param);
        problems.push(
          `${method.kind} ${origin}: field '${name}': the @Arg schema gives '${show(gives)}', but ${describe(param)} ` +
            `expects '${show(takes)}'. Fix: make the parameter type and the schema agree.`,
        );
      }
    }
  }

  const output = optionsType && schemaSide(checker, optionsType.getProperty('output'), 'input');
  const signature = checker.getSignatureFromDeclaration(node);
  if (output && signature) {
    const returned = checker.getReturnTypeOfSignature(signature);
    const awaited = checker.getAwaitedType(returned) ?? returned;
    // A handler may return a whole result ({ content, structuredContent }), as one that picks its
    // own text does: then its structuredContent is what the output schema checks.
    const structured = awaited.getProperty('content') && awaited.getProperty('structuredContent');
    const value = structured ? checker.getTypeOfSymbol(structured) : awaited;
    if (
      !(value.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) &&
      !checker.isTypeAssignableTo(value, output)
    ) {
      const fields = fieldDifferences(checker, value, output, {
        gives: 'the handler returns',
        takes: 'the output schema expects',
      });
      if (fields.length) {
        problems.push(
          `${method.kind} ${origin}: its return value and its output schema disagree: ${fields.join('; ')}. ` +
            "Fix: return the schema's type (z.input<typeof output>), or correct the schema.",
        );
      } else
        problems.push(
          `${method.kind} ${origin}: it returns '${show(value)}', which its output schema ('${show(output)}') does not accept. ` +
            "Fix: return the schema's type (z.input<typeof output>), or correct the schema.",
        );
    }
  }
  return problems;
}

/**
 * Field by field, where an object schema and the handler's object parameter part: "field 'a':
 * the schema gives string, the handler expects number". Empty when they are not both objects.
 */
function fieldDifferences(
  checker: ts.TypeChecker,
  gives: ts.Type,
  takes: ts.Type,
  names = { gives: 'the schema gives', takes: 'the handler expects' },
): string[] {
  const show = (type: ts.Type) =>
    checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  const target = checker.getNonNullableType(takes);
  if (!(gives.flags & ts.TypeFlags.Object) || !(target.flags & ts.TypeFlags.Object)) return [];
  const differences: string[] = [];
  for (const property of checker.getPropertiesOfType(target)) {
    const name = property.getName();
    const expected = checker.getTypeOfSymbol(property);
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const given = gives.getProperty(name);
    if (!given) {
      if (!optional)
        differences.push(
          `field '${name}': the handler expects '${show(expected)}', the schema has no such field`,
        );
      continue;
    }
    const found = checker.getTypeOfSymbol(given);
    if (!checker.isTypeAssignableTo(found, expected))
      differences.push(
        `field '${name}': ${names.gives} '${show(found)}', ${names.takes} '${show(expected)}'`,
      );
  }
  return differences;
}

/** The input or output type a Standard Schema declares in `~standard.types`. */
function schemaSide(
  checker: ts.TypeChecker,
  at: ts.Symbol | ts.Type | undefined,
  side: 'input' | 'output',
): ts.Type | undefined {
  if (!at) return undefined;
  const type =
    'flags' in at && typeof (at as ts.Type).getProperty === 'function'
      ? (at as ts.Type)
      : checker.getTypeOfSymbol(at as ts.Symbol);
  const standard = type.getProperty('~standard');
  if (!standard) return undefined;
  const types = checker.getTypeOfSymbol(standard).getProperty('types');
  if (!types) return undefined;
  const sides = checker.getNonNullableType(checker.getTypeOfSymbol(types));
  const chosen = sides.getProperty(side);
  const result = chosen && checker.getTypeOfSymbol(chosen);
  if (!result || result.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  return result;
}

function describe(param: ts.ParameterDeclaration): string {
  return ts.isIdentifier(param.name) ? `parameter '${param.name.text}'` : 'the arguments parameter';
}

function isArgCall(checker: ts.TypeChecker, call: ts.CallExpression): boolean {
  const at = ts.isPropertyAccessExpression(call.expression)
    ? call.expression.name
    : call.expression;
  let symbol = checker.getSymbolAtLocation(at);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.getName() === 'Arg';
}

function isContextParameter(checker: ts.TypeChecker, param: ts.ParameterDeclaration): boolean {
  const type = checker.getNonNullableType(checker.getTypeAtLocation(param));
  return type.getSymbol()?.getName() === 'Context';
}
