import type { HttpRequestView, HttpResponder } from './exchange.js';

/**
 * What a Server Card says of a server (SEP-2127), from its own metadata: `createServer`'s
 * `registryName`, `version`, `title`, `description`, `icons`, `repository` and `websiteUrl`.
 */
export interface ServerCardData {
  /** Reverse-DNS name with one slash, as in the MCP registry (`io.github.acme/weather`). */
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly title?: string;
  readonly icons?: readonly object[];
  readonly websiteUrl?: string;
  readonly repository?: Readonly<Record<string, unknown>>;
}

/**
 * The Server Card of `createHttpHandler` / `serveHttp` (`serverCard` option; on by default for a
 * server with a `registryName`): served at `<path>/server-card`, and listed in the site's AI
 * Catalog at `/.well-known/ai-catalog.json` and `/.well-known/mcp/catalog.json`.
 *
 * @example
 * ```ts
 * serveHttp(server, { serverCard: { url: 'https://weather.example.com/mcp' } });
 * ```
 */
export interface ServerCardOptions {
  /**
   * The public URL clients connect to, as the card's remote gives it (a URL template such as
   * `https://{tenant}.example.com/mcp` is allowed). Default: `http://<Host><path>` of each
   * request, right for local use; set it behind TLS or a proxy.
   */
  readonly url?: string;
  /** Also serve the AI Catalog listing this card (default true). */
  readonly catalog?: boolean;
}

/** The Server Card's media type (SEP-2127). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
/** The `$schema` a Server Card names. */
export const SERVER_CARD_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
const CATALOG_PATHS = ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json'];

// Public, read-only metadata for any page (discovery.md "CORS Requirements" and "Caching").
const SHARED_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
  'cache-control': 'public, max-age=3600',
};

/** Answers the card and catalog paths; the rest of the endpoint never sees them. */
export class ServerCardEndpoint {
  readonly #card: ServerCardData;
  readonly #mcpPath: string;
  readonly #cardPath: string;
  readonly #versions: readonly string[];
  readonly #options: ServerCardOptions;
  readonly #meta?: () => Promise<Record<string, unknown>>;

  constructor(
    card: ServerCardData,
    mcpPath: string,
    versions: readonly string[],
    options: ServerCardOptions = {},
    meta?: () => Promise<Record<string, unknown>>,
  ) {
    this.#card = card;
    this.#meta = meta;
    this.#mcpPath = mcpPath;
    this.#cardPath = `${mcpPath.replace(/\/$/, '')}/server-card`;
    this.#versions = versions;
    this.#options = options;
    if (options.url !== undefined && !/^(https?:\/\/\S+|\{[a-zA-Z_]\w*\}\S*)$/.test(options.url))
      throw new TypeError(
        `serverCard.url must be an http(s) URL or a URL template starting with {variable}; got "${options.url}"`,
      );
  }

  owns(path: string): boolean {
    return (
      path === this.#cardPath || (this.#options.catalog !== false && CATALOG_PATHS.includes(path))
    );
  }

  async answer(req: HttpRequestView, res: HttpResponder): Promise<void> {
    if (req.method === 'OPTIONS') return res.send(204, SHARED_HEADERS);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return res.send(
        405,
        { ...SHARED_HEADERS, allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain' },
        'Method not allowed: the Server Card and the catalog are read with GET',
      );
    const isCard = req.path === this.#cardPath;
    const body = JSON.stringify(isCard ? this.card(req, await this.#meta?.()) : this.catalog(req));
    const etag = `"${hash(body)}"`;
    const headers = {
      ...SHARED_HEADERS,
      'content-type': isCard ? SERVER_CARD_MEDIA_TYPE : 'application/ai-catalog+json',
      etag,
    };
    const known = req.header('if-none-match');
    if (known?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*'))
      return res.send(304, headers);
    res.send(200, headers, req.method === 'HEAD' ? undefined : body);
  }

  /**
   * The Server Card as this request's client sees it (the remote's URL from its Host), with
   * `meta` (the surface's fingerprint) as its `_meta`.
   */
  card(req: HttpRequestView, meta?: Record<string, unknown>): Record<string, unknown> {
    const { name, version, description, title, icons, websiteUrl, repository } = this.#card;
    return {
      $schema: SERVER_CARD_SCHEMA,
      name,
      version,
      description,
      ...(title !== undefined && { title }),
      ...(icons?.length && { icons }),
      ...(websiteUrl !== undefined && { websiteUrl }),
      ...(repository !== undefined && { repository }),
      remotes: [
        {
          type: 'streamable-http',
          url: this.#options.url ?? `http://${req.header('host') ?? 'localhost'}${this.#mcpPath}`,
          supportedProtocolVersions: [...this.#versions],
        },
      ],
      ...(meta !== undefined && { _meta: meta }),
    };
  }

  /** The AI Catalog of this origin: one entry, this card. */
  catalog(req: HttpRequestView): Record<string, unknown> {
    const [namespace, server] = this.#card.name.split('/') as [string, string];
    const url = `${originOf(this.#options.url) ?? `http://${req.header('host') ?? 'localhost'}`}${this.#cardPath}`;
    return {
      specVersion: '1.0',
      entries: [
        {
          // Domain-anchored: the reverse-DNS namespace read forwards (com.example → example.com).
          identifier: `urn:air:${namespace.split('.').reverse().join('.')}:mcp:${server}`,
          type: SERVER_CARD_MEDIA_TYPE,
          url,
        },
      ],
    };
  }
}

/** The origin of a plain URL; undefined for none or a template (`https://{tenant}.x.com`). */
function originOf(url: string | undefined): string | undefined {
  if (url === undefined || url.includes('{')) return undefined;
  return new URL(url).origin;
}

/** An opaque validator of `text` (FNV-1a, 32 bits, with the length): what an ETag needs. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(16)}-${text.length.toString(16)}`;
}
