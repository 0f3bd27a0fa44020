import { AuthorizationError } from './errors.js';

/** The parameters of the `Bearer` (or `DPoP`) challenge of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** `bearer`, or `dpop` when the server challenges with the DPoP scheme only (RFC 9449 §7.1). */
  readonly scheme: 'bearer' | 'dpop';
  /** Whether the server also (or only) challenges with the DPoP scheme: it takes DPoP-bound tokens. */
  readonly dpop: boolean;
  /** `resource_metadata`: where the protected resource metadata is (RFC 9728). */
  readonly resourceMetadata?: URL;
  /** `scope`: the scopes the request needs. */
  readonly scope?: string;
  /** `error`: `invalid_token`, `insufficient_scope`… */
  readonly error?: string;
  readonly errorDescription?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/**
 * The `Bearer` challenge of a `WWW-Authenticate` value, or undefined when it has none. Parsed
 * strictly (RFC 9110 §11.2): a value with control characters, an unterminated quoted string, a
 * parameter given twice, or two Bearer challenges is refused, since a server (or whatever sits
 * in front of it) that lets a parameter be injected could otherwise steer the client to another
 * metadata document or scope.
 */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  if (header === null || header.trim() === '') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(header))
    throw bad(header, 'it contains control characters (a header injection?)');
  const challenges = parseChallenges(header);
  let scheme: 'bearer' | 'dpop' = 'bearer';
  let bearer = challenges.filter((c) => c.scheme === scheme);
  if (bearer.length === 0) {
    scheme = 'dpop';
    bearer = challenges.filter((c) => c.scheme === scheme);
  }
  if (bearer.length === 0) return undefined;
  if (bearer.length > 1)
    throw bad(header, `it has more than one ${scheme === 'dpop' ? 'DPoP' : 'Bearer'} challenge`);
  const params = bearer[0]?.params ?? new Map<string, string>();
  const metadata = params.get('resource_metadata');
  let resourceMetadata: URL | undefined;
  if (metadata !== undefined) {
    try {
      resourceMetadata = new URL(metadata);
    } catch {}
    if (!resourceMetadata || !/^https?:$/.test(resourceMetadata.protocol))
      throw bad(header, `resource_metadata ${JSON.stringify(metadata)} is not an http(s) URL`);
  }
  return {
    scheme,
    dpop: challenges.some((c) => c.scheme === 'dpop'),
    resourceMetadata,
    scope: params.get('scope'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
  };
}

interface Challenge {
  readonly scheme: string;
  readonly params: Map<string, string>;
}

function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let rest = header;
  let current: Challenge | undefined;
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  skip(/^[\s,]+/);
  while (rest !== '') {
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) throw bad(header, `unexpected ${JSON.stringify(rest.slice(0, 20))}`);
    rest = rest.slice(name.length);
    const afterName = rest.replace(/^[ \t]*/, '');
    if (current && afterName.startsWith('=') && !/^=+[ \t]*(,|$)/.test(afterName)) {
      // name = value: a parameter of the current challenge.
      rest = afterName.slice(1).replace(/^[ \t]*/, '');
      let value: string;
      if (rest.startsWith('"')) {
        const match = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!match) throw bad(header, 'a quoted string is not terminated');
        value = (match[1] ?? '').replace(/\\(.)/g, '$1');
        rest = rest.slice(match[0].length);
      } else {
        const token = TOKEN.exec(rest)?.[0];
        if (token === undefined) throw bad(header, `parameter ${name} has no value`);
        value = token;
        rest = rest.slice(token.length);
      }
      const key = name.toLowerCase();
      if (current.params.has(key))
        throw bad(header, `parameter ${key} is given twice (an injected parameter?)`);
      current.params.set(key, value);
    } else {
      // A new challenge; a token68 after the scheme is kept as no parameter.
      current = { scheme: name.toLowerCase(), params: new Map() };
      challenges.push(current);
      const token68 = /^[ \t]+[A-Za-z0-9._~+/-]+=*[ \t]*(?=,|$)/.exec(rest);
      if (token68 && !/^[ \t]+[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*=[^=]/.test(rest))
        rest = rest.slice(token68[0].length);
    }
    rest = rest.replace(/^[ \t]*/, '');
    if (rest !== '' && !rest.startsWith(',') && !TOKEN.test(rest))
      throw bad(header, `unexpected ${JSON.stringify(rest.slice(0, 20))}`);
    skip(/^[\s,]+/);
  }
  return challenges;
}

function bad(header: string, why: string): AuthorizationError {
  return new AuthorizationError(
    'bad-challenge',
    `The server's WWW-Authenticate header ${JSON.stringify(header.slice(0, 300))} was refused: ${why}. Fix the server's challenge (RFC 9110 §11.2, RFC 9728 §5.1).`,
  );
}
