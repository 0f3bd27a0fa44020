import { AuthorizationError } from './errors.js';

/**
 * Whether a URL's host is on this machine or a private network: `localhost`, loopback,
 * RFC 1918, link-local, unique-local IPv6 or an IPv4-mapped one of those. Only literal addresses
 * and `localhost` names are recognised: resolving names is not runtime-neutral.
 */
export function isPrivateHost(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '0.0.0.0') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(mapped ?? host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (host.includes(':')) {
    if (host === '::1' || host === '::') return true;
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/** Whether a URL is on this machine (where plain `http` is acceptable). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/**
 * Refuses an authorization-server URL the client must not talk to: a private or loopback
 * address named by a server that is itself public (a server could otherwise aim the client at
 * the user's own network), and plain `http` anywhere but loopback.
 */
export function checkEndpoint(
  url: URL,
  what: string,
  server: URL,
  allowPrivateNetwork: boolean,
): void {
  if (!allowPrivateNetwork && isPrivateHost(url) && !isPrivateHost(server))
    throw new AuthorizationError(
      'private-address',
      `The ${what} ${url.href} is on a private or loopback address, named by the public server ${server.origin}; refused. If this is intended, pass allowPrivateNetwork: true.`,
    );
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    throw new AuthorizationError(
      'insecure-endpoint',
      `The ${what} ${url.href} is not https (only loopback may use plain http); refused. Serve it over https.`,
    );
}
