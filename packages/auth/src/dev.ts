import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

/** Options of {@link devAuthorizationServer}. */
export interface DevAuthorizationServerOptions {
  /** The MCP server's canonical URL: the one resource tokens are issued for. */
  readonly resource: string;
  /** Scopes that resource accepts. */
  readonly scopes: readonly string[];
  /** Pre-registered public clients (PKCE, no secret); others may register dynamically (RFC 7591). */
  readonly clients?: readonly {
    readonly clientId: string;
    readonly redirectUris: readonly string[];
  }[];
  /** The account every sign-in is approved as (default `dev`). */
  readonly account?: string;
  /** Access token lifetime in seconds (default 600). */
  readonly accessTokenTtl?: number;
  /**
   * Port on 127.0.0.1 (default 0: any free one). A fixed one keeps the issuer URL, and so the
   * tokens clients hold, the same from one start to the next. A port in use rejects, naming it.
   */
  readonly port?: number;
}

/** A running {@link devAuthorizationServer}. */
export interface DevAuthorizationServer {
  /** Its issuer URL, e.g. `http://127.0.0.1:41234`. */
  readonly issuer: string;
  /** Where it publishes its signing keys. */
  readonly jwksUri: string;
  /** Stops the authorization server and closes its connections. */
  close(): Promise<void>;
}

/**
 * A real OAuth 2.1 authorization server for trying a protected MCP server locally: oidc-provider
 * (a certified OpenID Provider, an optional peer dependency) on 127.0.0.1, issuing JWT access
 * tokens for exactly `resource` (RFC 8707 resource indicators), with PKCE, refresh tokens and
 * dynamic client registration. Sign-in and consent are approved automatically as `account`:
 * never expose it beyond loopback or use it in production.
 *
 * @example
 * ```ts
 * import { devAuthorizationServer } from '@mcp-fw/auth/dev';
 * const as = await devAuthorizationServer({ resource: 'http://127.0.0.1:3000/mcp', scopes: ['notes:read'] });
 * console.error(`authorization server: ${as.issuer}`);
 * ```
 */
export async function devAuthorizationServer(
  options: DevAuthorizationServerOptions,
): Promise<DevAuthorizationServer> {
  const { default: Provider, errors } = await import('oidc-provider');
  const server = await listenLoopback(options.port);
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: 'dev-1', alg: 'RS256', use: 'sig' };
  const ttl = options.accessTokenTtl ?? 600;
  const provider = new Provider(issuer, {
    clients: (options.clients ?? []).map((c) => ({
      client_id: c.clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: [...c.redirectUris],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    // What dynamically registered clients may ask for: the resource's scopes beside the OIDC ones.
    scopes: ['openid', 'offline_access', ...options.scopes],
    jwks: { keys: [signing] },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: ttl, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86_400 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.resource)
            throw new errors.InvalidTarget(
              `this development server only issues tokens for ${options.resource}`,
            );
          return {
            scope: options.scopes.join(' '),
            audience: options.resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ttl,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    if (req.method === 'POST' && req.url === '/reg') {
      // MCP clients register with the scope of their first, least-privileged request; kept as the
      // client's allow-list, it would refuse the wider scope a 403 later asks for (step-up).
      let text = '';
      for await (const chunk of req) text += chunk;
      try {
        const metadata = JSON.parse(text) as Record<string, unknown>;
        delete metadata.scope;
        (req as typeof req & { body?: unknown }).body = JSON.stringify(metadata);
      } catch {
        (req as typeof req & { body?: unknown }).body = text;
      }
      return callback(req, res);
    }
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // What a user's "sign in" and "allow" clicks would do, approved at once.
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        return await provider.interactionFinished(
          req,
          res,
          { login: { accountId: options.account ?? 'dev' } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({
            accountId: details.session!.accountId,
            clientId: details.params.client_id as string,
          });
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`authorization failed: ${(error as Error).message}`);
    }
  });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A node:http server on 127.0.0.1:`port` (0: any free port); a port in use rejects, naming it. */
async function listenLoopback(port: number | undefined): Promise<Server> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? Object.assign(
              new Error(
                `the development authorization server cannot listen on 127.0.0.1:${port}: the port is in use (another dev server?). Fix: stop what holds it, or choose another port`,
              ),
              { code: 'EADDRINUSE' },
            )
          : error,
      ),
    );
    server.listen(port ?? 0, '127.0.0.1', resolve);
  });
  return server;
}

/** Options of {@link devUpstreamProvider}. */
export interface DevUpstreamProviderOptions {
  /** The callback URL of the authorization server that signs people in here (`<issuer>/oauth/callback`). */
  readonly redirectUri: string;
  /** The client id the authorization server has here (default `mcp-fw-dev`). */
  readonly clientId?: string;
  /** Its secret (default `dev-secret-not-for-production`). */
  readonly clientSecret?: string;
  /**
   * The claims of the person who signs in with `login` (any login is accepted, with any
   * password). Default: `sub` = login, `name` = login, a verified `login@example.test` email.
   */
  readonly account?: (login: string) => Record<string, unknown>;
  /** Lifetime of its access tokens in seconds (default 3600); refresh tokens are issued too. */
  readonly accessTokenTtl?: number;
  /** Port on 127.0.0.1 (default 0: any free one). */
  readonly port?: number;
}

/** A running {@link devUpstreamProvider}. */
export interface DevUpstreamProvider {
  /** Its issuer URL (OIDC discovery at `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Stops it and closes its connections. */
  close(): Promise<void>;
}

/**
 * An OpenID provider standing in for GitHub, Google and the like while developing an
 * `authorizationServer` (`@mcp-fw/auth/server`): oidc-provider on 127.0.0.1 WITHOUT dynamic
 * registration, one static confidential client, authorization code with PKCE, and its own
 * login page (any login, any password) and consent page. Never expose it beyond loopback.
 *
 * @example
 * ```ts
 * import { devUpstreamProvider } from '@mcp-fw/auth/dev';
 * import { oidcUpstream } from '@mcp-fw/auth/server';
 * const idp = await devUpstreamProvider({ redirectUri: 'http://127.0.0.1:3000/oauth/callback' });
 * const upstream = oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, name: 'dev' });
 * ```
 */
export async function devUpstreamProvider(
  options: DevUpstreamProviderOptions,
): Promise<DevUpstreamProvider> {
  const { default: Provider } = await import('oidc-provider');
  const server = await listenLoopback(options.port);
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // ES256: a key made at once (an RSA key takes a noticeable while to generate on a busy machine).
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signing = {
    ...(await exportJWK(privateKey)),
    kid: 'dev-upstream-1',
    alg: 'ES256',
    use: 'sig',
  };
  const clientId = options.clientId ?? 'mcp-fw-dev';
  const clientSecret = options.clientSecret ?? 'dev-secret-not-for-production';
  const account =
    options.account ??
    ((login: string) => ({
      sub: login,
      name: login,
      email: `${login}@example.test`,
      email_verified: true,
    }));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [signing] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the person's claims (the authorization server reads only it).
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ ...account(id), sub: (account(id).sub as string | undefined) ?? id }),
    }),
    features: { devInteractions: { enabled: true }, registration: { enabled: false } },
    // Refresh tokens without offline_access, so the authorization server can refresh its tokens.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      RefreshToken: 86_400,
      Session: 3600,
      Grant: 86_400,
      Interaction: 600,
    },
  });
  // Development interactions print a warning per start; this is a development tool.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
