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
    problems.push(
      `${origin}: its input schema gives '${show(input)}', which ${describe(first)} of type ` +
        `'${show(checker.getTypeAtLocation(first))}' does not accept. Fix: type the parameter as the schema's ` +
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
          `${origin}: @Arg('${name}') gives '${show(gives)}', which ${describe(param)} of type '${show(takes)}' ` +
            'does not accept. Fix: make the parameter type and the schema agree.',
        );
      }
    }
  }

  const output = optionsType && schemaSide(checker, optionsType.getProperty('output'), 'input');
  const signature = checker.getSignatureFromDeclaration(node);
  if (output && signature) {
    const returned = checker.getReturnTypeOfSignature(signature);
    const value = checker.getAwaitedType(returned) ?? returned;
    if (
      !(value.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) &&
      !checker.isTypeAssignableTo(value, output)
    ) {
      problems.push(
        `${origin}: it returns '${show(value)}', which its output schema ('${show(output)}') does not accept. ` +
          "Fix: return the schema's type (z.input<typeof output>), or correct the schema.",
      );
    }
  }
  return problems;
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
