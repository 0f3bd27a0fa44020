/**
 * Whether `offset` in JavaScript `text` lies outside every bracket (`{`, `(`, `[`): at the top
 * level of a module's code, which runs when the module is evaluated, rather than in a function
 * body or an arrow's `(…)`. A scan, not a parse, and a cautious one: strings, template literals
 * and comments are skipped, a regular expression literal with an unbalanced bracket misleads it,
 * an arrow without brackets (`() => f()`) counts as top level and a call in another's arguments
 * (`f(g())`) as not. Its callers only use the answer to decide which file holds a lazily required
 * package (lazy-file.ts): a wrong one costs start time, never correctness.
 */
export function atTopLevel(text: string, offset: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < offset) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = endOf(text, '\n', i + 2);
    else if (c === '/' && text[i + 1] === '*') i = endOf(text, '*/', i + 2);
    else if (c === "'" || c === '"' || c === '`') i = endOfQuoted(text, c, i + 1);
    else {
      if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') depth--;
      i++;
    }
  }
  return depth === 0;
}

function endOf(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at < 0 ? text.length : at + token.length;
}

function endOfQuoted(text: string, quote: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
