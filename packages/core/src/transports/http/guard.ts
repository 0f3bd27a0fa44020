import type { HttpRequestView } from './exchange.js';

/** Which browsers' pages and which host names may reach the endpoint. */
export interface OriginPolicy {
  /** Allowed `Origin` values (exact, e.g. `https://app.example`), or `'*'`. Default: localhost pages. */
  readonly allowedOrigins?: readonly string[] | '*';
  /** Allowed `Host` names (without port), or `'*'`. Default: localhost, 127.0.0.1, [::1]. */
  readonly allowedHosts?: readonly string[] | '*';
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function hostname(hostHeader: string): string {
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0];
}

/**
 * DNS-rebinding protection (spec: Streamable HTTP "Security Warning"): a request whose `Host`
 * or `Origin` is not allowed is refused before anything else runs. Returns the reason, or
 * undefined when the request may proceed.
 */
export function checkOrigin(req: HttpRequestView, policy: OriginPolicy): string | undefined {
  const hosts = policy.allowedHosts ?? LOCAL_HOSTS;
  const host = req.header('host');
  if (hosts !== '*' && (host === undefined || !hosts.includes(hostname(host).toLowerCase()))) {
    return `Host ${JSON.stringify(host ?? '')} is not allowed`;
  }
  const origin = req.header('origin');
  if (origin === undefined || policy.allowedOrigins === '*') return undefined;
  if (policy.allowedOrigins) return policy.allowedOrigins.includes(origin) ? undefined : `Origin ${origin} is not allowed`;
  try {
    const url = new URL(origin);
    if (LOCAL_HOSTS.includes(url.hostname.toLowerCase()) || LOCAL_HOSTS.includes(`[${url.hostname}]`)) return undefined;
  } catch {
    // fall through: a malformed Origin is not allowed
  }
  return `Origin ${origin} is not allowed`;
}
