import type { HttpRequestView } from './exchange.js';

/** Which browsers' pages and which host names may reach the endpoint. */
export interface OriginPolicy {
  /** Allowed `Origin` values (exact, e.g. `https://app.example`), or `'*'`. Default: localhost pages. */
  readonly allowedOrigins?: readonly string[] | '*';
  /** Allowed `Host` names (without port), or `'*'`. Default: localhost, 127.0.0.1, [::1]. */
  readonly allowedHosts?: readonly string[] | '*';
}

/** Why a request is refused before anything else runs: 400 for a malformed Host, 403 for a foreign one. */
export interface GuardRefusal {
  readonly status: 400 | 403;
  readonly message: string;
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

// RFC 9110 §7.2: Host = uri-host [ ":" port ] (RFC 3986 §3.2.2–3.2.3). No user info, path, spaces
// or lists: `localhost:x@evil.com` must not be read as "localhost". Commas are left out of the
// reg-name characters so that two Host headers (joined with ", ") never parse as one.
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+;=%]+)(?::[0-9]{0,5})?$/;

// The last Host that passed the default list (or '*'): a client repeats its Host on every request,
// so the regular expression and the list are consulted once per client, not per request. Only
// for lists nobody can change: a server's own `allowedHosts` array is read every time.
let passedHost: string | undefined;
let passedHosts: readonly string[] | '*' | undefined;

/**
 * DNS-rebinding protection (spec: Streamable HTTP "Security Warning"): a request whose `Host`
 * or `Origin` is not allowed is refused before anything else runs. The `Host` header is parsed
 * strictly first: a missing, repeated or malformed one is a 400 (RFC 9112 §3.2), whatever the
 * allow-list. Returns the refusal, or undefined when the request may proceed.
 */
export function checkOrigin(req: HttpRequestView, policy: OriginPolicy): GuardRefusal | undefined {
  const hosts = policy.allowedHosts ?? LOCAL_HOSTS;
  const host = req.header('host');
  if (host !== undefined && host === passedHost && hosts === passedHosts) {
    // Passed before: on to the Origin check.
  } else if (host === undefined) {
    if (hosts !== '*') return { status: 400, message: 'Bad Request: the Host header is missing' };
  } else {
    const parsed = HOST.exec(host);
    if (!parsed) return { status: 400, message: malformedHost(host) };
    if (hosts !== '*' && !hosts.includes(parsed[1].toLowerCase())) {
      return { status: 403, message: `Forbidden: Host ${JSON.stringify(host)} is not allowed` };
    }
    if (hosts === LOCAL_HOSTS || hosts === '*') {
      passedHost = host;
      passedHosts = hosts;
    }
  }
  const origin = req.header('origin');
  if (origin === undefined || policy.allowedOrigins === '*') return undefined;
  if (policy.allowedOrigins)
    return policy.allowedOrigins.includes(origin) ? undefined : forbiddenOrigin(origin);
  try {
    const url = new URL(origin);
    if (
      LOCAL_HOSTS.includes(url.hostname.toLowerCase()) ||
      LOCAL_HOSTS.includes(`[${url.hostname}]`)
    )
      return undefined;
  } catch {
    // fall through: a malformed Origin is not allowed
  }
  return forbiddenOrigin(origin);
}

function forbiddenOrigin(origin: string): GuardRefusal {
  return { status: 403, message: `Forbidden: Origin ${origin} is not allowed` };
}

function malformedHost(host: string): string {
  if (host.includes(','))
    return 'Bad Request: more than one Host header was sent; send exactly one';
  return `Bad Request: malformed Host header ${JSON.stringify(host)}: send a host name or IP address with an optional port, without user info, path or spaces`;
}
