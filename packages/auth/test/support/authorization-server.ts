import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { freePort } from './protected.ts';

export interface AuthorizationServer {
  readonly issuer: string;
  readonly provider: Provider;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** The MCP server's canonical URL: the one resource tokens are issued for. */
  readonly resource: string;
  /** Scopes that resource accepts. */
  readonly scopes: readonly string[];
  /** A pre-registered public client (PKCE, no secret). */
  readonly client: { readonly clientId: string; readonly redirectUri: string };
  /** Access token lifetime in seconds (default 600). */
  readonly accessTokenTtl?: number;
  /** The account every login signs in as. */
  readonly account?: string;
}

/**
 * oidc-provider, a certified OpenID Provider, on 127.0.0.1: resource indicators (RFC 8707) with
 * JWT access tokens (RFC 9068) for exactly one resource, PKCE, refresh tokens, and login and
 * consent answered automatically through its own interaction API (what a user's clicks do).
 */
export async function authorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: 'as-1', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.clientId,
        token_endpoint_auth_method: 'none',
        redirect_uris: [options.client.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signing] },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: options.accessTokenTtl ?? 600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 3600 },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.resource) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          return {
            scope: options.scopes.join(' '),
            audience: options.resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.accessTokenTtl ?? 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  const callback = provider.callback();
  const server: Server = createServer(async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        return await provider.interactionFinished(req, res, { login: { accountId: options.account ?? 'alice' } }, { mergeWithLastSubmission: false });
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a user's browser does with an authorization URL: follows the redirects (keeping cookies)
 * through login and consent until the authorization server sends it to `redirectUri`; returns
 * the parameters it arrives with there (`code`, `state`, `iss`).
 */
export async function browse(authorizationUrl: URL, redirectUri: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(redirectUri)) {
      const params = new URL(url).searchParams;
      if (!params.get('code')) throw new Error(`the authorization server refused: ${params.get('error')}: ${params.get('error_description')}`);
      return params;
    }
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the authorization flow stopped at ${url} with ${response.status}: ${(await response.text()).slice(0, 300)}`);
    await response.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects in the authorization flow');
}
