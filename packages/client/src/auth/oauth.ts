import { type AuthorizationUrlHandler, authorizationCode } from './authorization-code.js';
import { parseBearerChallenge, type BearerChallenge } from './challenge.js';
import { discoverAuthorizationServer, discoverResource, namesServer } from './discovery.js';
import { DpopKey } from './dpop.js';
import { identityAssertion, JWT_BEARER, type EnterpriseIdentity } from './enterprise.js';
import { AuthorizationError } from './errors.js';
import { defaultEndpoints, legacyResource } from './legacy.js';
import { identifyClient, type ClientIdentity } from './registration.js';
import { requestTokens, type ClientAssertionKey } from './token-request.js';
import { MemoryTokenStore, type StoredTokens, type TokenStore } from './token-store.js';

/** Options of {@link oauth} (and {@link clientCredentials}). */
export interface OAuthOptions extends ClientIdentity {
  /**
   * `authorization_code` (default): a person signs in through {@link onAuthorizationUrl}.
   * `client_credentials`: a service authenticates with its own credentials, no person involved.
   * `enterprise`: the user's identity provider vouches for them ({@link enterprise}).
   * `jwt-bearer`: a workload presents a JWT its platform issued ({@link assertion}).
   */
  readonly grant?: 'authorization_code' | 'client_credentials' | 'enterprise' | 'jwt-bearer';
  /**
   * For the `jwt-bearer` grant: the workload's JWT (from its platform: a Kubernetes service
   * account token, a cloud identity token…), or a function that gets a fresh one.
   */
  readonly assertion?: string | (() => Promise<string> | string);
  /** For the `enterprise` grant: the identity provider and the user's ID token. */
  readonly enterprise?: EnterpriseIdentity;
  /** Where the authorization server sends the browser back (required for `authorization_code`). */
  readonly redirectUrl?: string | URL;
  /**
   * Shows the user the authorization URL (opens a browser…) and resolves with the URL the
   * authorization server redirected back to, with its `code`, `state` and `iss`. Headless
   * clients follow the redirect themselves. `@mcp-fw/client/node`'s `loopbackRedirect()`
   * opens the browser and listens on a loopback port for a person at a terminal.
   */
  readonly onAuthorizationUrl?: AuthorizationUrlHandler;
  /** The scope to ask for when the server's challenge names none (default: the resource's `scopes_supported`). */
  readonly scope?: string;
  /** For `private_key_jwt`: the client's private key (PKCS#8 PEM or a `CryptoKey`). */
  readonly privateKey?: ClientAssertionKey['privateKey'];
  /** The JWS algorithm of `privateKey` (default `ES256`). */
  readonly signingAlgorithm?: string;
  /** Where tokens and registrations are kept (default: in memory, for this process). */
  readonly store?: TokenStore;
  /**
   * Let a public server name an authorization server on a private or loopback address
   * (default false: refused, since a server could aim the client at the user's own network).
   */
  readonly allowPrivateNetwork?: boolean;
  /** Most authorizations one request may trigger, step-ups included (default 3). */
  readonly maxAuthorizations?: number;
  /**
   * Ask for DPoP-bound tokens (RFC 9449) where the authorization server offers ES256 proofs
   * (default true): each request then carries a fresh proof, and a stolen token alone is useless.
   */
  readonly dpop?: boolean;
  /** The fetch used to reach metadata, registration and token endpoints (default: the global one). */
  readonly fetch?: typeof fetch;
  /**
   * Longest wait for each metadata, registration or token request, in ms (default 30 000): an
   * authorization server that never answers fails the sign-in instead of holding it.
   */
  readonly requestTimeoutMs?: number;
}

/**
 * OAuth 2.1 for MCP servers over HTTP, handed to `connect()` as `auth`. On a 401 it discovers
 * the server's protected resource metadata (from `WWW-Authenticate`, RFC 9728) and its
 * authorization server's metadata (RFC 8414, then OpenID Connect), identifies the client
 * (pre-registered, Client ID Metadata Document, or dynamic registration), obtains a token for
 * the server's `resource` (RFC 8707) — authorization code with PKCE S256 and the RFC 9207 `iss`
 * check, or client credentials — and retries. A 403 `insufficient_scope` re-authorizes with
 * the union of the scopes, up to `maxAuthorizations`; an expired token is refreshed. Tokens
 * are sent only to the server they were issued for.
 */
export class OAuth {
  readonly #options: OAuthOptions;
  readonly #store: TokenStore;
  readonly #fetch: typeof fetch;
  readonly #pending = new Map<string, Promise<void>>();
  /** The DPoP key, made when a server first offers DPoP. */
  #dpop?: DpopKey;

  constructor(options: OAuthOptions = {}) {
    this.#options = options;
    this.#store = options.store ?? new MemoryTokenStore();
    const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#fetch = (input, init) =>
      base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) });
    // Options that cannot work fail here, at startup, not at the first 401.
    const grant = options.grant ?? 'authorization_code';
    if (grant === 'enterprise' && options.enterprise === undefined)
      throw new TypeError('enterpriseManaged(): pass the identity provider and the ID token.');
    if (grant === 'jwt-bearer' && options.assertion === undefined)
      throw new TypeError('workloadIdentity(): pass the assertion (the workload JWT).');
    if (options.clientSecret !== undefined && options.clientId === undefined)
      throw new TypeError('oauth(): clientSecret needs the clientId it was issued with.');
    if (grant === 'client_credentials' && options.clientId === undefined)
      throw new TypeError(
        'clientCredentials(): pass the clientId (with clientSecret or privateKey) registered with the authorization server.',
      );
  }

  /**
   * A fetch for requests to `server` that carries its token and authorizes on 401 and 403
   * `insufficient_scope`. `connect()` calls this; other code rarely needs it.
   */
  fetchFor(server: URL, next: typeof fetch = globalThis.fetch): typeof fetch {
    return async (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      const limit = this.#options.maxAuthorizations ?? 3;
      let nonceRetried = false;
      for (let authorizations = 0; ; authorizations++) {
        const tokens = await this.#tokens(server);
        const headers = new Headers(init?.headers);
        // Never to another host: only where the token's resource names the request's URL.
        const covered = tokens !== undefined && namesServer(tokens.resource, target);
        const bound = tokens?.tokenType.toLowerCase() === 'dpop';
        if (covered && !bound) headers.set('authorization', `Bearer ${tokens.accessToken}`);
        if (covered && bound && this.#dpop) {
          headers.set('authorization', `DPoP ${tokens.accessToken}`);
          const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
          headers.set('dpop', await this.#dpop.proof(method, target, tokens.accessToken));
        }
        const response = await next(input, { ...init, headers });
        if (response.status !== 401 && response.status !== 403) return response;
        // A URL the server's token is not for (another host, a path outside the resource):
        // no authorization for this server would be sent there, so none is attempted.
        if (target.origin !== server.origin || (tokens !== undefined && !covered)) return response;
        let challenge: BearerChallenge | undefined;
        try {
          challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
        } catch (error) {
          await response.body?.cancel();
          throw error;
        }
        if (response.status === 403 && challenge?.error !== 'insufficient_scope') return response;
        await response.body?.cancel();
        // RFC 9449 §9: the server wants its nonce in the proof; once per request.
        if (
          challenge?.error === 'use_dpop_nonce' &&
          !nonceRetried &&
          this.#dpop?.takeNonce(target, response)
        ) {
          nonceRetried = true;
          authorizations--;
          continue;
        }
        if (authorizations >= limit)
          throw new AuthorizationError(
            'retry-limit',
            `${server.href} still answers HTTP ${response.status}${challenge?.error ? ` ${challenge.error}` : ''}${
              challenge?.scope ? ` (scope "${challenge.scope}")` : ''
            } after ${limit} authorizations; giving up. The account may lack the permission, or raise maxAuthorizations.`,
            { status: response.status },
          );
        await this.#authorizeOnce(server, challenge, response.status, tokens);
      }
    };
  }

  /** Forgets the tokens kept for `server` (the registrations stay). */
  async signOut(server: string | URL): Promise<void> {
    await this.#store.delete(storeKey(new URL(server)));
  }

  async #tokens(server: URL): Promise<StoredTokens | undefined> {
    return (await this.#store.get(storeKey(server))) as StoredTokens | undefined;
  }

  /** Concurrent requests that hit the same 401 share one authorization. */
  async #authorizeOnce(
    server: URL,
    challenge: BearerChallenge | undefined,
    status: number,
    previous: StoredTokens | undefined,
  ): Promise<void> {
    const key = storeKey(server);
    const running = this.#pending.get(key);
    if (running) return running;
    const flow = this.#authorize(server, challenge, status, previous).finally(() =>
      this.#pending.delete(key),
    );
    this.#pending.set(key, flow);
    return flow;
  }

  async #authorize(
    server: URL,
    challenge: BearerChallenge | undefined,
    status: number,
    previous: StoredTokens | undefined,
  ): Promise<void> {
    const options = this.#options;
    const allowPrivate = options.allowPrivateNetwork ?? false;
    const published = await discoverResource(server, challenge?.resourceMetadata, this.#fetch);
    // No protected resource metadata: a 2025-03-26 server, its own authorization server.
    const resource = published ?? legacyResource(server);
    const issuer = resource.authorization_servers?.[0];
    if (typeof issuer !== 'string')
      throw new AuthorizationError(
        'resource-metadata',
        `The protected resource metadata of ${server.href} lists no authorization_servers.`,
      );
    const metadata = await discoverAuthorizationServer(
      issuer,
      server,
      this.#fetch,
      allowPrivate,
      published === undefined ? defaultEndpoints(server.origin) : undefined,
    );
    const sameIssuer = previous?.issuer === metadata.issuer;
    const scope = chooseScope(
      challenge?.scope ?? options.scope ?? resource.scopes_supported?.join(' '),
      // A step-up keeps what was granted (SEP-2350); a new authorization server starts afresh.
      sameIssuer ? previous?.scope : undefined,
      options.grant !== 'client_credentials' &&
        metadata.scopes_supported?.includes('offline_access'),
    );
    const grantTypes =
      options.grant === 'client_credentials'
        ? ['client_credentials']
        : options.grant === 'enterprise' || options.grant === 'jwt-bearer'
          ? [JWT_BEARER]
          : ['authorization_code', 'refresh_token'];
    const redirectUri = options.redirectUrl === undefined ? undefined : String(options.redirectUrl);
    const client = await identifyClient(metadata, options, {
      store: this.#store,
      redirectUri,
      grantTypes,
      fetch: this.#fetch,
    });
    // DPoP where both ends take it: the authorization server offers ES256 proofs, and the
    // server challenges with the DPoP scheme or lists DPoP in its metadata (RFC 9449 §5.1, §7.1;
    // RFC 9728 §2). A bound token sent to a Bearer-only server would only be refused.
    const useDpop =
      options.dpop !== false &&
      metadata.dpop_signing_alg_values_supported?.includes('ES256') === true &&
      (challenge?.dpop === true ||
        resource.dpop_signing_alg_values_supported?.includes('ES256') === true);
    if (useDpop && this.#dpop === undefined) this.#dpop = await DpopKey.create();
    const context = {
      resource: resource.resource,
      dpop: useDpop ? this.#dpop : undefined,
      scope,
      key:
        options.privateKey === undefined
          ? undefined
          : { privateKey: options.privateKey, algorithm: options.signingAlgorithm },
      fetch: this.#fetch,
    };
    let tokens: StoredTokens | undefined;
    if (status === 401 && sameIssuer && previous?.refreshToken)
      tokens = await requestTokens(
        metadata,
        client,
        {
          grant_type: 'refresh_token',
          refresh_token: previous.refreshToken,
          resource: resource.resource,
        },
        { ...context, scope: previous.scope },
      ).catch(() => undefined);
    if (!tokens && options.grant === 'client_credentials')
      tokens = await requestTokens(
        metadata,
        client,
        { grant_type: 'client_credentials', resource: resource.resource, ...(scope && { scope }) },
        context,
      );
    if (!tokens && options.grant === 'enterprise') {
      const assertion = await identityAssertion(
        options.enterprise as EnterpriseIdentity,
        { issuer: metadata.issuer, resource: resource.resource, scope },
        this.#fetch,
      );
      tokens = await requestTokens(
        metadata,
        client,
        { grant_type: JWT_BEARER, assertion, ...(scope && { scope }) },
        context,
      );
    }
    if (!tokens && options.grant === 'jwt-bearer') {
      const source = options.assertion as NonNullable<OAuthOptions['assertion']>;
      const assertion = typeof source === 'function' ? await source() : source;
      tokens = await requestTokens(
        metadata,
        client,
        { grant_type: JWT_BEARER, assertion, resource: resource.resource, ...(scope && { scope }) },
        context,
      );
    }
    tokens ??= await authorizationCode(options.onAuthorizationUrl, {
      metadata,
      client,
      resource: resource.resource,
      scope,
      context,
    });
    await this.#store.set(storeKey(server), tokens);
  }
}

function storeKey(server: URL): string {
  return `tokens ${server.origin}${server.pathname}`;
}

/** The requested scopes, with those granted before and `offline_access` where it applies. */
function chooseScope(
  wanted: string | undefined,
  granted: string | undefined,
  offline: boolean | undefined,
): string | undefined {
  const scopes = new Set([...(granted?.split(' ') ?? []), ...(wanted?.split(' ') ?? [])]);
  scopes.delete('');
  if (scopes.size === 0) return undefined;
  if (offline) scopes.add('offline_access');
  return [...scopes].join(' ');
}

/**
 * OAuth for `connect()`: a person signs in (authorization code with PKCE), or pass
 * `grant: 'client_credentials'`. See {@link OAuth} for what it does.
 *
 * @example
 * ```ts
 * import { connect, oauth } from '@mcp-fw/client';
 * import { loopbackRedirect } from '@mcp-fw/client/node';
 *
 * const redirect = await loopbackRedirect();
 * const client = await connect('https://example.com/mcp', {
 *   auth: oauth({ clientName: 'My agent', ...redirect }),
 * });
 * ```
 */
export function oauth(options: OAuthOptions = {}): OAuth {
  return new OAuth(options);
}

/**
 * Enterprise-managed authorization for `connect()` (the MCP extension, SEP-990): the user's
 * ID token from their organisation's identity provider is exchanged there for an ID-JAG
 * (RFC 8693), which the MCP server's authorization server takes as a JWT bearer grant (RFC 7523)
 * from this client (`clientId` and `clientSecret`, registered with it). No browser, no consent.
 *
 * @example
 * ```ts
 * import { connect, enterpriseManaged } from '@mcp-fw/client';
 *
 * const client = await connect('https://crm.example.com/mcp', {
 *   auth: enterpriseManaged({
 *     clientId: 'crm-agent',
 *     clientSecret: process.env.CRM_SECRET,
 *     enterprise: {
 *       idpTokenEndpoint: 'https://idp.example.com/oauth2/token',
 *       idpClientId: 'crm-agent-at-idp',
 *       idToken: () => session.idToken,
 *     },
 *   }),
 * });
 * ```
 */
export function enterpriseManaged(
  options: Omit<OAuthOptions, 'grant' | 'onAuthorizationUrl' | 'redirectUrl'> & {
    readonly enterprise: EnterpriseIdentity;
  },
): OAuth {
  return new OAuth({ ...options, grant: 'enterprise' });
}

/**
 * Workload identity federation for `connect()` (the MCP extension, SEP-1933): a workload
 * presents the JWT its platform issued it as a JWT bearer grant (RFC 7523), with no stored
 * secret. A refused assertion fails with `token-request`; no other grant is tried.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { connect, workloadIdentity } from '@mcp-fw/client';
 *
 * const client = await connect('https://inventory.example.com/mcp', {
 *   auth: workloadIdentity({
 *     clientId: 'inventory-sync',
 *     assertion: () => readFile('/var/run/secrets/tokens/mcp-token', 'utf8'),
 *   }),
 * });
 * ```
 */
export function workloadIdentity(
  options: Omit<OAuthOptions, 'grant' | 'onAuthorizationUrl' | 'redirectUrl'> & {
    readonly assertion: NonNullable<OAuthOptions['assertion']>;
  },
): OAuth {
  return new OAuth({ ...options, grant: 'jwt-bearer' });
}

/**
 * Machine-to-machine OAuth for `connect()`: the client credentials grant, authenticating with
 * a secret (`client_secret_basic` or `client_secret_post`, as the server prefers) or a private
 * key (`private_key_jwt`).
 *
 * @example
 * ```ts
 * import { clientCredentials, connect } from '@mcp-fw/client';
 *
 * const client = await connect('https://example.com/mcp', {
 *   auth: clientCredentials({ clientId: 'reporting', clientSecret: process.env.SECRET }),
 * });
 * ```
 */
export function clientCredentials(
  options: Omit<OAuthOptions, 'grant' | 'onAuthorizationUrl' | 'redirectUrl'>,
): OAuth {
  return new OAuth({
    ...options,
    grant: 'client_credentials',
    tokenEndpointAuthMethod:
      options.tokenEndpointAuthMethod ??
      (options.privateKey !== undefined ? 'private_key_jwt' : undefined),
  });
}
