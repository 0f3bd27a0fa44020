// Names in generated TypeScript: identifiers from document names, and property keys.

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof new null return super switch this throw ' +
    'true try typeof var void while with implements interface let package private protected ' +
    'public static yield await constructor'
  ).split(' '),
);

/** `find pet by id` → `FindPetById`; a leading digit gets a `T` (`2fa` → `T2fa`). */
export function pascalCase(raw: string): string {
  const words = raw.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (joined === '') return 'Api';
  return /^\d/.test(joined) ? `T${joined}` : joined;
}

/** `find pet by id` → `find_pet_by_id`, `list-pets` → `list_pets`; a keyword gets a `_` suffix. */
export function methodName(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^_+|_+$/g, '');
  if (name === '') name = 'operation';
  if (/^\d/.test(name)) name = `_${name}`;
  return RESERVED.has(name) ? `${name}_` : name;
}

/** A property key: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  // Biome's choice: double quotes when that escapes fewer characters.
  if (text.includes("'") && !text.includes('"'))
    return `"${text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}"`;
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`;
}

/** A JSDoc block at `indent` from lines of text; `*\/` inside is escaped. Empty lines in, none out. */
export function jsdoc(lines: readonly string[], indent: string): string {
  const body = lines.flatMap((l) => l.split('\n')).map((l) => l.trimEnd().replaceAll('*/', '*\\/'));
  while (body.length > 0 && body[0] === '') body.shift();
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  if (body.length === 0) return '';
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n')}\n${indent} */\n`;
}
