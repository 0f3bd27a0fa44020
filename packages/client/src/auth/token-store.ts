/** Tokens issued for one MCP server (a protected resource). */
export interface StoredTokens {
  readonly accessToken: string;
  /** `Bearer`, or `DPoP` for a sender-constrained token. */
  readonly tokenType: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch when the access token expires, if the server said. */
  readonly expiresAt?: number;
  /** The scopes requested (space-separated), so a step-up can ask for them again with more. */
  readonly scope?: string;
  /** The resource (RFC 8707) the tokens were issued for: they are sent nowhere else. */
  readonly resource: string;
  /** The authorization server that issued them. */
  readonly issuer: string;
}

/** A client registered with (or identified to) one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  readonly tokenEndpointAuthMethod: string;
  /** The redirect URI it was registered with. */
  readonly redirectUri?: string;
}

/**
 * Where the client keeps its tokens (per resource) and its registrations (per authorization
 * server issuer), between connections. Keys are opaque strings; values are JSON-serialisable.
 * `MemoryTokenStore` keeps them for the process; `FileTokenStore` (from
 * `@mcp-fw/client/node`) in a file only the user can read.
 *
 * @example
 * ```ts
 * const store: TokenStore = {
 *   get: (key) => cache.get(key),
 *   set: (key, value) => void cache.set(key, value),
 *   delete: (key) => void cache.delete(key),
 * };
 * ```
 */
export interface TokenStore {
  /** The value kept under `key`, or undefined. */
  get(key: string): Promise<unknown> | unknown;
  /** Keeps `value` (JSON-serialisable) under `key`. */
  set(key: string, value: unknown): Promise<void> | void;
  /** Forgets `key`. */
  delete(key: string): Promise<void> | void;
}

/**
 * A {@link TokenStore} in memory, for one process (the default).
 *
 * @example
 * ```ts
 * const store = new MemoryTokenStore();
 * const client = await connect(url, { auth: oauth({ store, onAuthorizationUrl }) });
 * ```
 */
export class MemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, unknown>();
  /** The value kept under `key`, or undefined. */
  get(key: string): unknown {
    return this.#entries.get(key);
  }
  /** Keeps `value` under `key`. */
  set(key: string, value: unknown): void {
    this.#entries.set(key, value);
  }
  /** Forgets `key`. */
  delete(key: string): void {
    this.#entries.delete(key);
  }
}

/** The store key of the tokens for a resource. */
export const tokensKey = (resource: string): string => `tokens ${resource}`;
/** The store key of the client registered with an issuer. */
export const clientKey = (issuer: string): string => `client ${issuer}`;
