import ts from 'typescript5';
import { SCHEMA_TAGS } from './jsdoc.js';

// Tags that document without becoming a schema keyword (TSDoc and JSDoc): no warning.
const DOC_TAGS = new Set([
  'param',
  'arg',
  'argument',
  'returns',
  'return',
  'see',
  'link',
  'linkcode',
  'linkplain',
  'remarks',
  'privateRemarks',
  'summary',
  'throws',
  'exception',
  'since',
  'internal',
  'public',
  'beta',
  'alpha',
  'experimental',
  'inheritDoc',
  'override',
  'virtual',
  'sealed',
  'readonly',
  'todo',
  'author',
  'version',
  'template',
  'typeParam',
  'type',
  'defaultValue',
  'label',
  'packageDocumentation',
  'eventProperty',
  'decorator',
  'async',
  'module',
  'license',
  'copyright',
  'ignore',
  'hidden',
  'category',
]);

const KNOWN = new Set([...DOC_TAGS, ...SCHEMA_TAGS]);
// Schema tags that mean something on a property or an alias only; a method's JSDoc gives its
// description and the @param texts.
const KEYWORD_ONLY = new Set(
  SCHEMA_TAGS.filter((t) => !['example', 'deprecated', 'description'].includes(t)),
);

/** Where a node is, as `file:line` (the file relative to `dir`). */
export function locationOf(node: ts.Node, dir: string): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  const name = file.fileName.startsWith(`${dir}/`)
    ? file.fileName.slice(dir.length + 1)
    : file.fileName;
  return `${name}:${line + 1}`;
}

/**
 * A JSDoc tag that neither documents nor sets a schema keyword is most likely a typo
 * (`@minimun 1`) whose constraint would silently be missing: the warning names it, its place
 * and the tag it was probably meant to be.
 */
export function unknownTagWarning(
  tag: ts.JSDocTag,
  subject: string,
  dir: string,
): string | undefined {
  const name = tag.tagName.text;
  if (KNOWN.has(name)) return undefined;
  const guess = nearest(name);
  const hint =
    name === 'asType' || name === 'integer' || name === 'int'
      ? "Fix: type it as Integer (import type { Integer } from '@mcp-fw/core') for an integer."
      : guess
        ? `Fix: did you mean @${guess}?`
        : `Fix: use one of the schema tags (@${SCHEMA_TAGS.join(', @')}) or remove it.`;
  return `${locationOf(tag, dir)}: ${subject}: unknown JSDoc tag @${name}, which sets nothing in the schema. ${hint}`;
}

/** The warnings about a decorated method's own JSDoc: unknown tags, `@param` naming no parameter. */
export function methodDocWarnings(
  method: ts.MethodDeclaration,
  subject: string,
  dir: string,
): string[] {
  const warnings: string[] = [];
  const names = method.parameters.flatMap((p) => bindingNames(p.name));
  for (const tag of ts.getJSDocTags(method)) {
    if (ts.isJSDocParameterTag(tag)) {
      const named = tag.name.getText().split('.')[0];
      if (!names.includes(named)) {
        const list = names.length ? `its parameters are ${names.join(', ')}` : 'it takes none';
        warnings.push(
          `${locationOf(tag, dir)}: ${subject}: @param ${named} names no parameter (${list}), so its text ` +
            'is not in the schema. Fix: rename it to the parameter it describes, or remove the line.',
        );
      }
      continue;
    }
    const unknown = unknownTagWarning(tag, subject, dir);
    if (unknown) warnings.push(unknown);
    else if (KEYWORD_ONLY.has(tag.tagName.text)) {
      warnings.push(
        `${locationOf(tag, dir)}: ${subject}: @${tag.tagName.text} on a method sets nothing in the schema (it ` +
          `applies to properties and type aliases). Fix: put it on a type alias the parameter takes, e.g. ` +
          `/** @${tag.tagName.text} … */ type Amount = number.`,
      );
    }
  }
  // Inline comments on parameters (`add(/** @minimun 0 */ a: number)`).
  for (const param of method.parameters) {
    for (const tag of ts.getJSDocTags(param)) {
      if (ts.isJSDocParameterTag(tag) || tag.parent?.parent === method) continue;
      const unknown = unknownTagWarning(tag, subject, dir);
      if (unknown) warnings.push(unknown);
    }
  }
  return warnings;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) =>
    ts.isOmittedExpression(e) ? [] : bindingNames((e as ts.BindingElement).name),
  );
}

/** The known tag at most two edits away, if any (case differences count as none). */
function nearest(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of KNOWN) {
    const d = distance(name.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}
