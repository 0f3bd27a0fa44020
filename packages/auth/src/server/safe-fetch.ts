import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/** How a document on someone else's server is fetched (CIMD: the client's metadata). */
export interface SafeFetchOptions {
  /** Allow loopback and private addresses (default false: refused, as the URL is the client's choice). */
  readonly allowPrivateAddresses?: boolean;
  /** Largest accepted body in bytes. */
  readonly maxBytes: number;
  /** Time allowed for the whole fetch, in ms. */
  readonly timeoutMs: number;
  /** Extra trusted CA certificates (PEM), e.g. a test's self-signed one. */
  readonly ca?: string;
}

/** Why a fetch was refused: the message names the cause. */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
}

// Addresses a URL chosen by a stranger must not reach: the server's own network (RFC 1918,
// loopback, link-local incl. cloud metadata at 169.254.169.254, CGNAT, ULA) and non-unicast.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** True for an address a public fetch must not reach (IPv4-mapped IPv6 judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * GETs an https URL as JSON, refusing private addresses (checked on the address actually
 * connected to, so DNS rebinding between check and connect does not help), redirects, bodies
 * over `maxBytes` (stopped as soon as they pass it) and answers slower than `timeoutMs`.
 */
export function fetchJson(url: URL, options: SafeFetchOptions): Promise<unknown> {
  if (url.protocol !== 'https:')
    return Promise.reject(new SafeFetchError(`${url.href} is not an https URL`));
  const lookup = (
    hostname: string,
    opts: object,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...opts, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      if (!options.allowPrivateAddresses) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad)
          return callback(
            new SafeFetchError(
              `${hostname} resolves to ${bad.address}, a private or loopback address`,
            ),
            '',
          );
      }
      if ((opts as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  return new Promise((resolve, reject) => {
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !options.allowPrivateAddresses && isPrivateAddress(literal)) {
      reject(new SafeFetchError(`${url.host} is a private or loopback address`));
      return;
    }
    const req = httpsRequest(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        lookup: lookup as never,
        ca: options.ca,
        timeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(
            new SafeFetchError(
              `${url.href} answered HTTP ${res.statusCode}${res.headers.location ? ' (a redirect; redirects are not followed)' : ''}`,
            ),
          );
          return;
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          res.destroy();
          reject(new SafeFetchError(`${url.href} is ${declared} bytes, over ${options.maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new SafeFetchError(`${url.href} is over ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error) => reject(new SafeFetchError(`${url.href}: ${error.message}`)));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new SafeFetchError(`${url.href} is not JSON`));
          }
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new SafeFetchError(`${url.href} did not answer within ${options.timeoutMs} ms`)),
    );
    req.on('error', (error) =>
      reject(
        error instanceof SafeFetchError
          ? error
          : new SafeFetchError(
              error.name === 'AbortError' || error.name === 'TimeoutError'
                ? `${url.href} did not answer within ${options.timeoutMs} ms`
                : `${url.href}: ${error.message}`,
            ),
      ),
    );
    req.end();
  });
}
