/**
 * RFC 6570 URI templates, the subset MCP resource templates use: `{var}` (one segment: no `/`,
 * `?` or `#`), `{+var}` (reserved: may span segments), `{/var}` and `{?a,b}` / `{&a}` (query).
 * Matching is anchored, so `file:///{a}/{b}` never swallows a literal path with more segments.
 */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The decoded variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
  /** Fills the template (values percent-encoded as the operator requires). */
  expand(values: Record<string, string>): string;
}

export class UriTemplateError extends Error {
  override name = 'UriTemplateError';
}

interface Part {
  readonly op: '' | '+' | '/' | '?' | '&';
  readonly names: readonly string[];
}

const EXPRESSION = /\{([+/?&]?)([A-Za-z0-9_.,]+)\}/g;
const SEGMENT = '([^/?#]*)';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function isUriTemplate(uri: string): boolean {
  return /\{[^}]*\}/.test(uri);
}

export function parseUriTemplate(template: string): UriTemplate {
  const parts: Part[] = [];
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  let queryVars: string[] | undefined;
  for (const m of template.matchAll(EXPRESSION)) {
    const literal = template.slice(last, m.index);
    if (/[{}]/.test(literal))
      throw new UriTemplateError(`malformed expression in URI template ${template}`);
    pattern += escapeRegExp(literal);
    last = m.index! + m[0].length;
    const op = m[1] as Part['op'];
    const names = m[2].split(',');
    for (const name of names) {
      if (variables.includes(name))
        throw new UriTemplateError(`variable {${name}} appears twice in ${template}`);
      variables.push(name);
    }
    parts.push({ op, names });
    if (op === '?' || op === '&') {
      if (last !== template.length)
        throw new UriTemplateError(`query expression must end the template ${template}`);
      queryVars = names;
      pattern += '(?:[?&](.*))?';
    } else if (op === '+') {
      if (names.length !== 1)
        throw new UriTemplateError(`{+${m[2]}}: one variable per reserved expression`);
      pattern += '([^?#]*)';
    } else if (op === '/') {
      pattern += names.map(() => `/${SEGMENT}`).join('');
    } else {
      if (names.length !== 1)
        throw new UriTemplateError(`{${m[2]}}: one variable per simple expression`);
      pattern += SEGMENT;
    }
  }
  const tail = template.slice(last);
  if (/[{}]/.test(tail))
    throw new UriTemplateError(`malformed expression in URI template ${template}`);
  pattern += `${escapeRegExp(tail)}$`;
  const regex = new RegExp(pattern);
  const pathVars = parts.filter((p) => p.op !== '?' && p.op !== '&').flatMap((p) => p.names);

  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      for (let i = 0; i < pathVars.length; i++) {
        const value = decode(m[i + 1]);
        if (value === undefined || value === '') return undefined;
        out[pathVars[i]] = value;
      }
      if (queryVars && m[pathVars.length + 1]) {
        for (const pair of m[pathVars.length + 1].split('&')) {
          const [k, v = ''] = pair.split('=');
          if (queryVars.includes(k)) {
            const value = decode(v);
            if (value === undefined) return undefined;
            out[k] = value;
          }
        }
      }
      return out;
    },
    expand(values) {
      return template.replace(EXPRESSION, (_all, op: string, list: string) => {
        const names = list.split(',');
        if (op === '?' || op === '&') {
          const pairs = names
            .filter((n) => values[n] !== undefined)
            .map((n) => `${n}=${encodeURIComponent(values[n])}`);
          return pairs.length ? (op === '?' ? '?' : '&') + pairs.join('&') : '';
        }
        if (op === '+') return encodeURI(values[names[0]] ?? '');
        if (op === '/') return names.map((n) => `/${encodeURIComponent(values[n] ?? '')}`).join('');
        return encodeURIComponent(values[names[0]] ?? '');
      });
    },
  };
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
