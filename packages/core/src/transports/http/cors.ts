import type { HeaderMap, HttpRequestView } from './exchange.js';

/**
 * Request headers a browser client may send, across every revision: the body's type and
 * negotiation, credentials, the legacy session and resumption headers, and the 2026-07-28
 * request metadata (`Mcp-Method`, `Mcp-Name` and one `Mcp-Param-{name}` per `x-mcp-header`
 * argument, which is why that family is matched by prefix).
 */
const ALLOWED_HEADERS = new Set([
  'content-type',
  'accept',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
]);
const PARAM_PREFIX = 'mcp-param-';
const BASE_ALLOW_HEADERS = [...ALLOWED_HEADERS].join(', ');

/** Response headers a page may read: the session it must echo, auth challenges, back-off. */
const EXPOSE_HEADERS = 'mcp-session-id, www-authenticate, retry-after';

/**
 * The CORS headers for `req` when its `Origin` is one of `origins`, else undefined. A preflight
 * cannot be answered with a wildcard family such as `Mcp-Param-*` (CORS lists are exact names,
 * and `*` is refused with credentials), so the requested `Access-Control-Request-Headers` are
 * echoed, keeping only the names allowed above; a browser then refuses any other on its own.
 */
export function corsHeaders(
  req: HttpRequestView,
  origins: readonly string[] | '*' | undefined,
): HeaderMap | undefined {
  const origin = req.header('origin');
  if (!origins || origin === undefined || (origins !== '*' && !origins.includes(origin)))
    return undefined;
  const headers: HeaderMap = {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSE_HEADERS,
    vary: 'origin',
  };
  if (req.method === 'OPTIONS') {
    headers['access-control-allow-methods'] = 'GET, POST, DELETE, OPTIONS';
    headers['access-control-allow-headers'] = allowedOf(
      req.header('access-control-request-headers'),
    );
    headers['access-control-max-age'] = '600';
    headers.vary = 'origin, access-control-request-headers';
  }
  return headers;
}

function allowedOf(requested: string | undefined): string {
  if (requested === undefined) return BASE_ALLOW_HEADERS;
  const allowed: string[] = [];
  for (const part of requested.split(',')) {
    const name = part.trim().toLowerCase();
    if (
      ALLOWED_HEADERS.has(name) ||
      (name.length > PARAM_PREFIX.length && name.startsWith(PARAM_PREFIX) && isToken(name))
    ) {
      allowed.push(name);
    }
  }
  return allowed.length > 0 ? allowed.join(', ') : BASE_ALLOW_HEADERS;
}

// RFC 9110 §5.6.2 tchar: what `x-mcp-header` names may use; anything else is never echoed.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

function isToken(name: string): boolean {
  return TOKEN.test(name);
}
