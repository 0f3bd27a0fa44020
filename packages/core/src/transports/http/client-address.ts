import type { HttpRequestView } from './exchange.js';

/**
 * The address a request is counted under (per-client session caps, listen streams, tasks, rate
 * limits, the audit log): the connection's, unless the connection comes from a trusted proxy
 * (`trustedProxies`), whose `X-Forwarded-For` (else `Forwarded: for=`) is then believed. The
 * list is read right to left, skipping trusted proxies: the first address that is not one is
 * the client, so a client cannot pass itself off as another by sending the header itself.
 *
 * Without `trustedProxies`, a request that carries those headers (the server sits behind a
 * proxy, and every client behind it shares the proxy's address) is told once to `warn`.
 */
export class ClientAddress {
  readonly #trusted: readonly Range[];
  readonly #warn?: (message: string) => void;
  #warned = false;
  // Parsing addresses costs about a JSON.parse of a small message: the answers are kept, per
  // peer and per forwarding header (a client on a kept-alive connection repeats both), bounded.
  readonly #peers = new Map<string, boolean>();
  readonly #clients = new Map<string, string | undefined>();

  constructor(trustedProxies: readonly string[] = [], warn?: (message: string) => void) {
    this.#trusted = trustedProxies.map(parseRange);
    this.#warn = warn;
  }

  /** `req` as the endpoint should see it: with the client's address when a proxy told it. */
  of(req: HttpRequestView): HttpRequestView {
    const peer = req.remoteAddress;
    if (this.#trusted.length === 0) {
      if (!this.#warned && this.#warn) this.#tell(req, peer);
      return req;
    }
    if (peer === undefined || !this.#trusts(peer)) return req;
    const xff = req.header('x-forwarded-for');
    const forwarded = xff === undefined ? req.header('forwarded') : undefined;
    if (xff === undefined && forwarded === undefined) return req;
    const key = xff === undefined ? `F${forwarded}` : `X${xff}`;
    let client = this.#clients.get(key);
    if (client === undefined && !this.#clients.has(key)) {
      client = this.#clientOf(xff === undefined ? forwardedHops(forwarded!) : xffHops(xff));
      remember(this.#clients, key, client);
    }
    return client === undefined || client === peer ? req : new ForwardedRequest(req, client);
  }

  /** The first hop from the right that is not a trusted proxy; undefined when none parses. */
  #clientOf(hops: readonly string[]): string | undefined {
    let client: string | undefined;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      const bytes = parseAddress(hop);
      // Not an address ("unknown", an obfuscated name): the hop after it is all that is known.
      if (!bytes) break;
      client = canonical(hop, bytes);
      if (!this.#trusted.some((range) => range.contains(bytes))) break;
    }
    return client;
  }

  #trusts(address: string): boolean {
    let trusted = this.#peers.get(address);
    if (trusted === undefined) {
      const bytes = parseAddress(address);
      trusted = bytes !== undefined && this.#trusted.some((range) => range.contains(bytes));
      remember(this.#peers, address, trusted);
    }
    return trusted;
  }

  #tell(req: HttpRequestView, peer: string | undefined): void {
    if (req.header('x-forwarded-for') === undefined && req.header('forwarded') === undefined)
      return;
    this.#warned = true;
    this.#warn?.(
      `requests reach this server through a proxy at ${peer ?? 'an unknown address'} (they carry X-Forwarded-For or Forwarded), but trustedProxies is not set: every unauthenticated client behind it counts as one client for maxSessionsPerClient, maxListenStreamsPerClient, limits.tasks.maxTasksPerOwner and per-address rate limits, so one of them can use up everyone's share. Set trustedProxies to the proxy's addresses (e.g. trustedProxies: ['${peer ?? '10.0.0.0/8'}'], or MCP_TRUSTED_PROXIES with serveFromArgs), or authenticate clients.`,
    );
  }
}

const REMEMBERED = 1024;

/** Keeps `value` under `key`, forgetting everything once the map is full (rarely: few proxies). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= REMEMBERED) map.clear();
  map.set(key, value);
}

/** The addresses of `X-Forwarded-For`, client first. */
function xffHops(xff: string): string[] {
  return xff.split(',').map((hop) => hop.trim());
}

/** The `for=` addresses of `Forwarded` (RFC 7239), client first. */
function forwardedHops(forwarded: string): string[] {
  const hops: string[] = [];
  for (const element of forwarded.split(',')) {
    let hop = '';
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for')
        hop = pair
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1');
    }
    hops.push(hop);
  }
  return hops;
}

/**
 * `req` with another `remoteAddress`, everything else delegated. Methods are bound (fields), as
 * callers pass `req.header` around on its own.
 */
class ForwardedRequest implements HttpRequestView {
  readonly method: string;
  readonly path: string;
  readonly header: (name: string) => string | undefined;
  readonly text: (limit: number) => Promise<string | undefined>;
  readonly onAbort: (listener: () => void) => void;

  constructor(
    private readonly req: HttpRequestView,
    readonly remoteAddress: string,
  ) {
    this.method = req.method;
    this.path = req.path;
    this.header = (name) => req.header(name);
    this.text = (limit) => req.text(limit);
    this.onAbort = (listener) => req.onAbort(listener);
  }

  get url(): URL {
    return this.req.url;
  }

  get signal(): AbortSignal {
    return this.req.signal;
  }
}

interface Range {
  contains(address: Uint8Array): boolean;
}

/** An address or CIDR of `trustedProxies`; anything else is an error naming the entry. */
function parseRange(entry: string): Range {
  const slash = typeof entry === 'string' ? entry.indexOf('/') : -1;
  const text = slash < 0 ? entry : entry.slice(0, slash);
  const base = typeof text === 'string' ? parseAddress(text) : undefined;
  const v4 = base !== undefined && !text.includes(':');
  const bits = slash < 0 ? 128 : Number(entry.slice(slash + 1)) + (v4 ? 96 : 0);
  if (!base || !Number.isInteger(bits) || bits < (v4 ? 96 : 0) || bits > 128)
    throw new Error(
      `trustedProxies: ${JSON.stringify(entry)} is not an IP address or CIDR (e.g. '10.0.0.1', '10.0.0.0/8', 'fd00::/8')`,
    );
  return {
    contains(address) {
      for (let bit = 0; bit < bits; bit += 8) {
        const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
        const i = bit / 8;
        if (((address[i] as number) & mask) !== ((base[i] as number) & mask)) return false;
      }
      return true;
    },
  };
}

/**
 * An IPv4 or IPv6 address as 16 bytes (IPv4 as `::ffff:a.b.c.d`, as dual-stack sockets report
 * it), tolerating brackets, a port and a zone; undefined when it is not one.
 */
export function parseAddress(input: string): Uint8Array | undefined {
  let text = input.trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return undefined;
    text = text.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(text)) {
    text = text.slice(0, text.indexOf(':'));
  }
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const out = new Uint8Array(16);
  const v4 = parseV4(text);
  if (v4) {
    out[10] = 0xff;
    out[11] = 0xff;
    out.set(v4, 12);
    return out;
  }
  if (!text.includes(':')) return undefined;
  let tail: Uint8Array | undefined;
  const last = text.lastIndexOf(':');
  if (text.slice(last + 1).includes('.')) {
    tail = parseV4(text.slice(last + 1));
    if (!tail) return undefined;
    text = `${text.slice(0, last + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  for (let i = 0; i < 8; i++) {
    const group = groups[i] as string;
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    const value = Number.parseInt(group, 16);
    out[i * 2] = value >> 8;
    out[i * 2 + 1] = value & 0xff;
  }
  if (tail) out.set(tail, 12);
  return out;
}

function parseV4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] as string;
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    bytes[i] = Number(part);
  }
  return bytes;
}

/** The address as it is counted: IPv4 (mapped or not) dotted, IPv6 lower-case, bare. */
function canonical(hop: string, bytes: Uint8Array): string {
  const mapped = bytes.slice(0, 12).every((b, i) => b === (i >= 10 ? 0xff : 0));
  if (mapped) return Array.from(bytes.slice(12)).join('.');
  const text = hop.trim().toLowerCase();
  return text.startsWith('[') ? text.slice(1, text.indexOf(']')) : (text.split('%')[0] as string);
}
