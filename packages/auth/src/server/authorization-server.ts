import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import { InvalidTokenError, type AuthInfo, type TokenVerifier, authInfoOf } from '../auth-info.js';
import { accessTokens } from './access-tokens.js';
import { upstreamAccess } from './upstream-access.js';
import {
  oauthResource,
  type OAuthResourceHttpOptions,
  type OAuthResourceOptions,
} from '../resource.js';
import { authorize, callback, consent } from './authorize.js';
import { ASSERTION_ALGORITHMS } from './client-auth.js';
import {
  CLIENT_CREDENTIALS,
  ClientError,
  isMetadataDocumentId,
  JWT_BEARER,
  metadataDocumentClient,
  type KnownClient,
  type PreRegisteredClient,
} from './clients.js';
import { json, type AuthorizationServerOptions, type ServerContext } from './context.js';
import { randomToken, Sealer, sha256 } from './crypto.js';
import { identityProviderKeys } from './machine-grants.js';
import { errorPage } from './pages.js';
import { AuthorizationLimiter, RateLimited } from './rate-limits.js';
import { register } from './registration.js';
import { MemoryAuthorizationStore } from './store.js';
import { revoke, token } from './token-endpoint.js';
import { UpstreamClient } from './upstream.js';

/**
 * A running {@link authorizationServer}: its routes and token verifier, to be served on the
 * MCP server's own origin (see {@link AuthorizationServer.protect}).
 */
export interface AuthorizationServer {
  /** The issuer identifier (`iss` of every token and redirect). */
  readonly issuer: string;
  /** The RFC 8414 metadata document. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Serves the metadata and the OAuth endpoints (`/oauth/*`); undefined for other paths. */
  routes(req: HttpRequestView): Promise<HttpReply | undefined>;
  /** Verifies this server's access tokens (signature, issuer, audience, expiry, not revoked). */
  readonly verifier: TokenVerifier;
  /**
   * The `serveHttp` options that make the MCP server a protected resource of this
   * authorization server and serve its endpoints beside it.
   */
  protect(
    options?: Omit<OAuthResourceOptions, 'resource' | 'authorizationServers' | 'verifier'>,
  ): OAuthResourceHttpOptions;
}

const PREFIX = '/oauth';
/** The endpoints other origins' code calls (CORS preflight answered), under the prefix. */
const MACHINE_ENDPOINTS = new Set(['/token', '/register', '/revoke', '/jwks']);

/**
 * An OAuth 2.1 authorization server for this MCP server, mounted on its own origin, where
 * people sign in at an upstream identity provider that offers MCP clients no registration
 * (GitHub, Google, Entra…: see {@link upstreams}). It serves RFC 8414 metadata; the
 * authorization code grant with PKCE S256 only; clients identified by a Client ID Metadata
 * Document (fetched safely, cached), pre-registered, or registered dynamically (RFC 7591, can be
 * off); a server-rendered consent page (CSRF-safe) naming the client, its verified domain and
 * the scopes; access tokens signed with its own key and bound to the resource (`aud`); refresh
 * tokens rotated on every use, a reused one revoking its whole family; revocation (RFC 7009);
 * and `iss` in every redirect (RFC 9207). `ctx.auth` carries the upstream identity as claims and
 * {@link UpstreamAccess} as `ctx.auth.upstream`.
 *
 * @example
 * ```ts
 * import { serveHttp } from '@mcp-fw/core/node';
 * import { authorizationServer, upstreams } from '@mcp-fw/auth/server';
 * import type { McpFwServer } from '@mcp-fw/core';
 * declare const server: McpFwServer;
 * const as = await authorizationServer({
 *   resource: 'https://mcp.example.com/mcp',
 *   scopes: ['notes:read', 'notes:write'],
 *   upstream: upstreams.github({ clientId: 'Iv1.abc', clientSecret: process.env.GITHUB_SECRET }),
 * });
 * await serveHttp(server, { port: 3000, allowedHosts: ['mcp.example.com'], ...as.protect({ challengeScopes: ['notes:read'] }) });
 * ```
 */
export async function authorizationServer(
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  const resourceUrl = new URL(options.resource);
  const issuer = (options.issuer ?? resourceUrl.origin).replace(/\/$/, '');
  const shared =
    options.store !== undefined && !(options.store instanceof MemoryAuthorizationStore);
  if (shared && (!options.secret || !options.signingKey))
    throw new TypeError(
      'authorizationServer: a shared store needs the same secret and signingKey on every instance (otherwise tokens and sealed upstream tokens from one instance are useless on another); pass both',
    );
  if (options.secret !== undefined && options.secret.length < 32)
    throw new TypeError(
      'authorizationServer: secret must be at least 32 characters (e.g. `openssl rand -base64 32`)',
    );
  if (options.scopes.length === 0)
    throw new TypeError('authorizationServer: name the scopes it grants (scopes)');
  const store = options.store ?? new MemoryAuthorizationStore();
  const upstream = new UpstreamClient(options.upstream);
  const accessTokenTtl = options.accessTokenTtl ?? 3600;
  const tokens = await accessTokens({
    issuer,
    resource: options.resource,
    ttlSeconds: accessTokenTtl,
    signingKey: options.signingKey,
  });

  // The endpoints live under the issuer's own path (RFC 8414 §2: an issuer may have one), so an
  // issuer `https://host/tenant` serves `/tenant/oauth/*`.
  const base = `${new URL(issuer).pathname.replace(/\/$/, '')}${PREFIX}`;
  const urls = {
    authorize: `${issuer}${PREFIX}/authorize`,
    token: `${issuer}${PREFIX}/token`,
    register: `${issuer}${PREFIX}/register`,
    revoke: `${issuer}${PREFIX}/revoke`,
    jwks: `${issuer}${PREFIX}/jwks`,
    consent: `${issuer}${PREFIX}/consent`,
    callback: `${issuer}${PREFIX}/callback`,
  };
  const preregistered = new Map<string, KnownClient>();
  for (const c of options.clients ?? [])
    preregistered.set(c.clientId, await preregisteredClient(c, options.scopes));
  const cimd =
    options.clientMetadataDocuments === false ? undefined : (options.clientMetadataDocuments ?? {});
  const registration = options.registration !== false;
  const identityProviders = identityProviderKeys(options.trustedIdentityProviders ?? []);
  const limiter = new AuthorizationLimiter(options.rateLimits, options.store);

  const ctx: ServerContext = {
    issuer,
    resource: options.resource,
    scopes: options.scopes,
    store,
    sealer: new Sealer(options.secret ?? randomToken()),
    upstream,
    options,
    accessTokenTtl,
    refreshTokenTtlMs: (options.refreshTokenTtl ?? 30 * 24 * 3600) * 1000,
    urls,
    identityProviders,
    limit: (kind, endpoint, who) => limiter.check(kind, endpoint, who),
    async client(clientId, address) {
      const known = preregistered.get(clientId);
      if (known) return known;
      if (isMetadataDocumentId(clientId)) {
        if (!cimd)
          throw new ClientError(
            'invalid_client',
            `client ${clientId} is a metadata document URL, and this server does not accept those`,
          );
        return metadataDocumentClient(
          clientId,
          store,
          cimd,
          address === undefined ? undefined : () => limiter.check('cimd', 'fetch', address),
        );
      }
      const text = clientId.length <= 100 ? await store.get(`client:${clientId}`) : undefined;
      if (text) return JSON.parse(text) as KnownClient;
      throw new ClientError(
        'invalid_client',
        `client ${clientId} is unknown: ${cimd ? 'use a Client ID Metadata Document URL as client_id' : ''}${cimd && registration ? ', or ' : ''}${registration ? `register at ${urls.register}` : ''}${!cimd && !registration ? 'ask the operator to register it' : ''}`,
      );
    },
    sign: (family, familyId, scopes, idp) =>
      tokens.sign(family, familyId, scopes, idp ?? upstream.provider.name),
  };
  const known = [...preregistered.values()];
  const machineClients = known.some((c) => c.grantTypes?.includes(CLIENT_CREDENTIALS));
  const keyClients = known.some((c) => c.authMethod === 'private_key_jwt');

  const metadata = {
    issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    ...(registration ? { registration_endpoint: urls.register } : {}),
    revocation_endpoint: urls.revoke,
    jwks_uri: urls.jwks,
    scopes_supported: [...options.scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      ...(machineClients ? [CLIENT_CREDENTIALS] : []),
      ...(identityProviders.size > 0 ? [JWT_BEARER] : []),
    ],
    token_endpoint_auth_methods_supported: [
      'none',
      'client_secret_basic',
      'client_secret_post',
      ...(keyClients ? ['private_key_jwt'] : []),
    ],
    ...(keyClients
      ? { token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS }
      : {}),
    revocation_endpoint_auth_methods_supported: [
      'none',
      'client_secret_basic',
      'client_secret_post',
      ...(keyClients ? ['private_key_jwt'] : []),
    ],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: cimd !== undefined,
  };
  const metadataText = JSON.stringify(metadata);
  const wellKnown = new Set([
    `/.well-known/oauth-authorization-server${new URL(issuer).pathname.replace(/\/$/, '')}`,
  ]);

  const verify = tokens.verify;
  const refreshing = new Map<string, Promise<string>>();

  const verifier: TokenVerifier = async (tokenText) => {
    const payload = await verify(tokenText);
    if (!(await store.get(`family:${payload.gid}`)))
      throw new InvalidTokenError('the access token has been revoked; sign in again');
    const info: AuthInfo = authInfoOf(payload);
    // A machine grant (client credentials, ID-JAG) signed no one in upstream: nothing to lend.
    if (payload.idp !== upstream.provider.name) return info;
    return Object.defineProperty(info, 'upstream', {
      value: upstreamAccess(ctx, payload.gid, refreshing),
      enumerable: false,
    });
  };

  const familyOfAccessToken = async (tokenText: string) => {
    const payload = await verify(tokenText).catch(() => undefined);
    return payload ? { familyId: payload.gid, clientId: String(payload.client_id) } : undefined;
  };

  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
    'access-control-max-age': '600',
  };
  const routes = async (req: HttpRequestView): Promise<HttpReply | undefined> => {
    try {
      return await route(req);
    } catch (error) {
      if (error instanceof RateLimited) return tooMany(req.path, error);
      // The store (e.g. Redis) or the upstream failed: the client may retry, the operator must act.
      const reason = error instanceof Error ? error.message : String(error);
      console.error(
        `[mcp-fw/auth] the authorization server failed on ${req.method} ${req.path}: ${reason}`,
      );
      return req.path === new URL(urls.authorize).pathname ||
        req.path === new URL(urls.callback).pathname ||
        req.path === new URL(urls.consent).pathname
        ? errorPage(
            503,
            'temporarily_unavailable',
            `the sign-in cannot be completed now (${reason}); try again later`,
          )
        : json(
            503,
            { error: 'temporarily_unavailable', error_description: `try again later (${reason})` },
            { 'retry-after': '5' },
          );
    }
  };
  const tooMany = (path: string, error: RateLimited): HttpReply => {
    const retryAfter = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
    const page = ['/authorize', '/callback', '/consent'].includes(path.slice(base.length));
    const reply = page
      ? errorPage(429, 'temporarily_unavailable', error.message)
      : json(429, { error: 'temporarily_unavailable', error_description: error.message });
    return { ...reply, headers: { ...reply.headers, 'retry-after': retryAfter } };
  };
  const route = async (req: HttpRequestView): Promise<HttpReply | undefined> => {
    // Every request to the server passes here (MCP calls included): the prefix check comes first.
    const path = req.path;
    const known = wellKnown.has(path);
    if (!known && !path.startsWith(`${base}/`)) return undefined;
    const endpoint = known ? '' : path.slice(base.length);
    if (req.method === 'OPTIONS' && (known || MACHINE_ENDPOINTS.has(endpoint)))
      return { status: 204, headers: cors };
    const address = req.remoteAddress ?? 'unknown';
    if (endpoint === '/register' && req.method === 'POST')
      await limiter.check('register', path, address);
    else if (
      ['/authorize', '/callback', '/token', '/revoke'].includes(endpoint) ||
      (endpoint === '/consent' && req.method === 'POST')
    ) {
      await limiter.check('address', path, address);
      const clientId = endpoint === '/authorize' ? req.url.searchParams.get('client_id') : null;
      if (clientId) await limiter.check('client', path, clientId.slice(0, 200));
    }
    if (known)
      return {
        status: 200,
        headers: { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' },
        body: metadataText,
      };
    switch (endpoint) {
      case '/authorize':
        return authorize(ctx, req);
      case '/callback':
        return callback(ctx, req);
      case '/consent':
        return consent(ctx, req);
      case '/token':
        return token(ctx, req);
      case '/revoke':
        return revoke(ctx, req, familyOfAccessToken);
      case '/register':
        return registration
          ? register(ctx, req)
          : json(404, {
              error: 'invalid_request',
              error_description: 'dynamic registration is off on this server',
            });
      case '/jwks':
        return {
          status: 200,
          headers: {
            ...cors,
            'content-type': 'application/jwk-set+json',
            'cache-control': 'max-age=300',
          },
          body: tokens.jwks,
        };
      default:
        return undefined;
    }
  };

  return {
    issuer,
    metadata,
    routes,
    verifier,
    protect(extra = {}) {
      const resource = oauthResource({
        ...extra,
        resource: options.resource,
        authorizationServers: [issuer],
        verifier,
      });
      return {
        ...resource,
        routes: async (req) => (await routes(req)) ?? resource.routes(req),
      } as OAuthResourceHttpOptions;
    },
  };
}

/** A `clients` entry as the server knows it, checked: what cannot work fails at startup. */
async function preregisteredClient(
  c: PreRegisteredClient,
  serverScopes: readonly string[],
): Promise<KnownClient> {
  const where = `authorizationServer: client ${c.clientId}`;
  const grantTypes = c.grantTypes ?? ['authorization_code', 'refresh_token'];
  const machine = grantTypes.includes(CLIENT_CREDENTIALS) || grantTypes.includes(JWT_BEARER);
  if (c.jwks && c.jwksUri)
    throw new TypeError(`${where}: give its keys as jwks or jwksUri, not both`);
  const keys = c.jwks !== undefined || c.jwksUri !== undefined;
  if (keys && c.clientSecret !== undefined)
    throw new TypeError(
      `${where}: give it a clientSecret or keys (jwks/jwksUri for private_key_jwt), not both`,
    );
  if (c.jwks && (!Array.isArray(c.jwks.keys) || c.jwks.keys.length === 0))
    throw new TypeError(`${where}: jwks must be a JWK Set with at least one key ({ keys: [...] })`);
  if (c.jwks?.keys.some((k) => 'd' in k))
    throw new TypeError(`${where}: jwks holds a private key (d); give only the public keys`);
  if (c.jwksUri !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(c.jwksUri);
    } catch {}
    if (
      !url ||
      (url.protocol !== 'https:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost')
    )
      throw new TypeError(`${where}: jwksUri ${c.jwksUri} must be an https URL`);
  }
  if (machine && !keys && c.clientSecret === undefined)
    throw new TypeError(
      `${where} uses ${grantTypes.filter((g) => g === CLIENT_CREDENTIALS || g === JWT_BEARER).join(' and ')}, which need a confidential client: give it a clientSecret or keys (jwks or jwksUri)`,
    );
  if (machine && c.clientSecret !== undefined && c.clientSecret.length < 32)
    throw new TypeError(
      `${where}: a machine client's secret must be at least 32 characters (e.g. \`openssl rand -base64 32\`)`,
    );
  const redirectUris = [...(c.redirectUris ?? [])];
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0)
    throw new TypeError(
      `${where} uses authorization_code: list its redirectUris (or give a machine client grantTypes: ['client_credentials'])`,
    );
  const unknown = (c.scopes ?? []).filter((s) => !serverScopes.includes(s));
  if (unknown.length)
    throw new TypeError(
      `${where}: scopes ${unknown.join(' ')} are not among the server's scopes (${serverScopes.join(' ')})`,
    );
  return {
    clientId: c.clientId,
    redirectUris,
    clientName: c.name,
    authMethod: keys ? 'private_key_jwt' : c.clientSecret ? 'client_secret_basic' : 'none',
    secretHash: c.clientSecret ? await sha256(c.clientSecret) : undefined,
    kind: 'preregistered',
    ...(c.grantTypes ? { grantTypes: [...c.grantTypes] } : {}),
    ...(c.scopes ? { scopes: [...c.scopes] } : {}),
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.jwksUri ? { jwksUri: c.jwksUri } : {}),
  };
}
