import ts from 'typescript5';
import type { JsonSchema } from './manifest.js';

// JSDoc tags that become JSON Schema keywords as they are: numbers, then strings.
const NUMBER_TAGS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;
const STRING_TAGS = ['pattern', 'format', 'title'] as const;

/** Every tag that sets a schema keyword. */
export const SCHEMA_TAGS: readonly string[] = [
  ...NUMBER_TAGS,
  ...STRING_TAGS,
  'example',
  'default',
  'deprecated',
  'description',
];

/** A tag's text (`@minimum 0` → "0"), whatever form the compiler parsed its comment into. */
export function tagText(tag: ts.JSDocTagInfo): string {
  return (tag.text ?? [])
    .map((part) => part.text)
    .join('')
    .trim();
}

/**
 * The schema keywords that a declaration's JSDoc spells: its summary as `description`, and the
 * tags above. A tag whose value does not parse (e.g. `@minimum ten`) is an error rather than a
 * silently missing constraint, so the message says which tag and where.
 */
export function docKeywords(
  summary: string,
  tags: readonly ts.JSDocTagInfo[],
  where: string,
): JsonSchema {
  const keywords: JsonSchema = {};
  if (summary) keywords.description = summary;
  for (const tag of tags) {
    const name = tag.name;
    const text = tagText(tag);
    if ((NUMBER_TAGS as readonly string[]).includes(name)) {
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) {
        throw new Error(`${where}: @${name} needs a number, got ${JSON.stringify(text)}`);
      }
      keywords[name] = value;
    } else if ((STRING_TAGS as readonly string[]).includes(name)) {
      keywords[name] = text;
    } else if (name === 'example') {
      ((keywords.examples ??= []) as unknown[]).push(jsonOrText(text));
    } else if (name === 'default') {
      keywords.default = jsonOrText(text);
    } else if (name === 'deprecated') {
      keywords.deprecated = true;
    } else if (name === 'description' && text) {
      keywords.description = text;
    }
  }
  return keywords;
}

/** `@example 42` is the number 42, `@example {"a":1}` an object, anything else the text. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The summary of a symbol's documentation comment, or of a signature's. */
export function summaryOf(parts: readonly ts.SymbolDisplayPart[]): string {
  return ts.displayPartsToString(parts as ts.SymbolDisplayPart[]).trim();
}

/** The text of `@param name text` for one parameter, without the conventional leading dash. */
export function paramDescription(param: ts.ParameterDeclaration): string | undefined {
  for (const tag of ts.getJSDocParameterTags(param)) {
    const text = ts.getTextOfJSDocComment(tag.comment)?.trim().replace(/^-\s*/, '');
    if (text) return text;
  }
  return undefined;
}
