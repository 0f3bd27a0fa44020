import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * The identity provider people sign in at (the `upstream` option of `authorizationServer`): an
 * OpenID Connect provider found by discovery (`issuer`), or a plain OAuth provider whose user
 * API names the person (`userApi`, GitHub). Register this server's callback URL
 * (`<issuer>/oauth/callback`) as a redirect URI at the provider; no dynamic registration is
 * needed there. Build one with {@link oidcUpstream} or a preset in {@link upstreams}.
 */
export interface UpstreamProvider {
  /** A short name, shown on the consent page and kept as the `idp` claim (e.g. `github`). */
  readonly name: string;
  /** The client id this server has at the provider. */
  readonly clientId: string;
  /** Its client secret (none: a public client, PKCE only). */
  readonly clientSecret?: string;
  /** Scopes asked of the provider (OIDC default: `openid email profile`). */
  readonly scopes: readonly string[];
  /** OIDC: the issuer, whose `/.well-known/openid-configuration` gives the endpoints and keys. */
  readonly issuer?: string;
  /** OAuth-only providers (or an override): where the person signs in. */
  readonly authorizationEndpoint?: string;
  /** OAuth-only providers (or an override): where codes are exchanged. */
  readonly tokenEndpoint?: string;
  /**
   * OAuth-only providers: the user API that names the person (GET with the provider's access
   * token), and which of its fields are the subject, the (unverified, public) email and the
   * name. `emails` is an API listing the person's addresses as `{ email, primary, verified }`
   * (GitHub's `/user/emails`): its primary verified address becomes the verified `email`.
   */
  readonly userApi?: {
    readonly url: string;
    readonly subject: string;
    readonly email?: string;
    readonly name?: string;
    readonly emails?: string;
  };
  /** Extra authorization parameters (e.g. Google's `access_type: offline` for a refresh token). */
  readonly authorizationParams?: Readonly<Record<string, string>>;
}

/**
 * A generic OpenID Connect upstream, found by discovery from its issuer.
 *
 * @example
 * ```ts
 * import { oidcUpstream } from '@mcp-fw/auth/server';
 * const upstream = oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'mcp', clientSecret: process.env.IDP_SECRET });
 * ```
 */
export function oidcUpstream(options: {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly scopes?: readonly string[];
  readonly name?: string;
  readonly authorizationParams?: Readonly<Record<string, string>>;
}): UpstreamProvider {
  return {
    name: options.name ?? new URL(options.issuer).host,
    issuer: options.issuer.replace(/\/$/, ''),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes: options.scopes ?? ['openid', 'email', 'profile'],
    authorizationParams: options.authorizationParams,
  };
}

/** The credentials every preset needs: the client this server has at the provider. */
export interface UpstreamCredentials {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Scopes to ask for instead of the preset's. */
  readonly scopes?: readonly string[];
}

/**
 * Presets for identity providers that offer MCP clients no registration: data only (endpoints
 * and scopes), each giving an {@link UpstreamProvider}. Register `<issuer>/oauth/callback` as
 * the redirect URI at the provider.
 *
 * @example
 * ```ts
 * import { upstreams } from '@mcp-fw/auth/server';
 * const github = upstreams.github({ clientId: 'Iv1.abc', clientSecret: process.env.GITHUB_SECRET });
 * const entra = upstreams.entra({ tenant: 'contoso.onmicrosoft.com', clientId: '…', clientSecret: '…' });
 * ```
 */
export const upstreams = {
  /** GitHub (OAuth apps and GitHub apps): OAuth only, the person is named by its user API. */
  github: (c: UpstreamCredentials): UpstreamProvider => ({
    name: 'github',
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    scopes: c.scopes ?? ['read:user', 'user:email'],
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userApi: {
      url: 'https://api.github.com/user',
      subject: 'id',
      email: 'email',
      name: 'login',
      emails: 'https://api.github.com/user/emails',
    },
  }),
  /** Google accounts (OIDC); asks for offline access so upstream tokens can be refreshed. */
  google: (c: UpstreamCredentials): UpstreamProvider => ({
    ...oidcUpstream({ issuer: 'https://accounts.google.com', ...c, name: 'google' }),
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  }),
  /** Microsoft Entra ID (OIDC, v2.0 endpoints) for `tenant` (an id, a domain, or `organizations`). */
  entra: (c: UpstreamCredentials & { readonly tenant: string }): UpstreamProvider =>
    oidcUpstream({
      issuer: `https://login.microsoftonline.com/${c.tenant}/v2.0`,
      ...c,
      scopes: c.scopes ?? ['openid', 'email', 'profile', 'offline_access'],
      name: 'entra',
    }),
  /** Auth0 (OIDC) at its tenant `domain`, e.g. `example.us.auth0.com`. */
  auth0: (c: UpstreamCredentials & { readonly domain: string }): UpstreamProvider =>
    oidcUpstream({
      issuer: `https://${c.domain}`,
      ...c,
      scopes: c.scopes ?? ['openid', 'email', 'profile', 'offline_access'],
      name: 'auth0',
    }),
  /** Okta (OIDC) at `domain`, with its `default` custom authorization server unless another is named. */
  okta: (
    c: UpstreamCredentials & { readonly domain: string; readonly authorizationServer?: string },
  ): UpstreamProvider =>
    oidcUpstream({
      issuer: `https://${c.domain}/oauth2/${c.authorizationServer ?? 'default'}`,
      ...c,
      scopes: c.scopes ?? ['openid', 'email', 'profile', 'offline_access'],
      name: 'okta',
    }),
  /** Keycloak (OIDC): `baseUrl` such as `https://sso.example.com` and the `realm`. */
  keycloak: (
    c: UpstreamCredentials & { readonly baseUrl: string; readonly realm: string },
  ): UpstreamProvider =>
    oidcUpstream({
      issuer: `${c.baseUrl.replace(/\/$/, '')}/realms/${encodeURIComponent(c.realm)}`,
      ...c,
      name: 'keycloak',
    }),
  /** WorkOS AuthKit (OIDC) at its AuthKit `domain`, e.g. `example.authkit.app`. */
  workos: (c: UpstreamCredentials & { readonly domain: string }): UpstreamProvider =>
    oidcUpstream({
      issuer: `https://${c.domain}`,
      ...c,
      scopes: c.scopes ?? ['openid', 'email', 'profile', 'offline_access'],
      name: 'workos',
    }),
} as const;

/** What the upstream said about the person, and its tokens. */
export interface UpstreamSignIn {
  readonly subject: string;
  readonly claims: Record<string, unknown>;
  readonly tokens: UpstreamTokens;
}

/** The upstream provider's tokens, kept (encrypted) for tools. */
export interface UpstreamTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
}

/** The upstream refused or failed; the message names which step and why. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

interface Endpoints {
  authorization: string;
  token: string;
  jwks?: ReturnType<typeof createRemoteJWKSet>;
  issuer?: string;
}

/** Talks to one upstream provider: discovery (once), the authorization URL, code exchange, refresh. */
export class UpstreamClient {
  #endpoints?: Promise<Endpoints>;

  constructor(
    readonly provider: UpstreamProvider,
    private readonly timeoutMs = 10_000,
  ) {
    if (
      !provider.issuer &&
      !(provider.authorizationEndpoint && provider.tokenEndpoint && provider.userApi)
    )
      throw new TypeError(
        `authorizationServer: upstream ${provider.name} needs an issuer (OIDC discovery) or authorizationEndpoint, tokenEndpoint and userApi`,
      );
  }

  endpoints(): Promise<Endpoints> {
    this.#endpoints ??= this.#discover().catch((error) => {
      this.#endpoints = undefined;
      throw error;
    });
    return this.#endpoints;
  }

  async #discover(): Promise<Endpoints> {
    const p = this.provider;
    if (!p.issuer) return { authorization: p.authorizationEndpoint!, token: p.tokenEndpoint! };
    const url = `${p.issuer}/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) }).catch(
      (error: Error) => {
        throw new UpstreamError(
          `the upstream ${p.name}'s discovery at ${url} failed: ${error.message}`,
        );
      },
    );
    if (!response.ok)
      throw new UpstreamError(
        `the upstream ${p.name}'s discovery at ${url} answered HTTP ${response.status}`,
      );
    const doc = (await response.json()) as Record<string, string>;
    if (doc.issuer !== p.issuer)
      throw new UpstreamError(
        `the upstream's discovery document names issuer ${doc.issuer}, not ${p.issuer}; configure the exact issuer`,
      );
    return {
      authorization: p.authorizationEndpoint ?? doc.authorization_endpoint,
      token: p.tokenEndpoint ?? doc.token_endpoint,
      jwks: createRemoteJWKSet(new URL(doc.jwks_uri)),
      issuer: doc.issuer,
    };
  }

  /** Where the browser goes to sign in upstream. */
  async authorizationUrl(params: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    nonce: string;
  }): Promise<string> {
    const { authorization } = await this.endpoints();
    const url = new URL(authorization);
    const p = this.provider;
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', p.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', p.scopes.join(' '));
    url.searchParams.set('state', params.state);
    url.searchParams.set('code_challenge', params.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    if (p.issuer) url.searchParams.set('nonce', params.nonce);
    for (const [k, v] of Object.entries(p.authorizationParams ?? {})) url.searchParams.set(k, v);
    return url.href;
  }

  async #tokenRequest(body: URLSearchParams): Promise<Record<string, unknown>> {
    const { token } = await this.endpoints();
    const p = this.provider;
    body.set('client_id', p.clientId);
    if (p.clientSecret) body.set('client_secret', p.clientSecret);
    const response = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    }).catch((error: Error) => {
      throw new UpstreamError(`the upstream ${p.name}'s token endpoint failed: ${error.message}`);
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof json.access_token !== 'string')
      throw new UpstreamError(
        `the upstream ${p.name}'s token endpoint refused: ${String(json.error ?? `HTTP ${response.status}`)}${json.error_description ? ` (${String(json.error_description)})` : ''}`,
      );
    return json;
  }

  /** Exchanges the upstream code; verifies the ID token (OIDC) or asks the user API (OAuth). */
  async signIn(
    code: string,
    verifier: string,
    redirectUri: string,
    nonce: string,
  ): Promise<UpstreamSignIn> {
    const p = this.provider;
    const json = await this.#tokenRequest(
      new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
      }),
    );
    const tokens = tokensOf(json);
    let claims: Record<string, unknown>;
    if (p.issuer) {
      const { jwks, issuer } = await this.endpoints();
      if (typeof json.id_token !== 'string')
        throw new UpstreamError(
          `the upstream ${p.name} returned no ID token; ask for the openid scope`,
        );
      try {
        ({ payload: claims } = await jwtVerify(json.id_token, jwks!, {
          issuer,
          audience: p.clientId,
          requiredClaims: ['sub', 'exp'],
          clockTolerance: 5,
        }));
      } catch (error) {
        throw new UpstreamError(
          `the upstream ${p.name}'s ID token is not valid: ${(error as Error).message}`,
        );
      }
      if (claims.nonce !== nonce)
        throw new UpstreamError(
          `the upstream ${p.name}'s ID token does not carry this sign-in's nonce`,
        );
    } else {
      const api = p.userApi!;
      const user = (await this.#userApi(api.url, tokens.accessToken)) as Record<string, unknown>;
      claims = {
        sub: String(user[api.subject]),
        ...(api.name && typeof user[api.name] === 'string' ? { name: user[api.name] } : {}),
        // A user API's public email is one the provider shows, not one it vouches for.
        ...(api.email && typeof user[api.email] === 'string'
          ? { email: user[api.email], email_verified: false }
          : {}),
      };
      if (api.emails) {
        const list = await this.#userApi(api.emails, tokens.accessToken);
        const verified = Array.isArray(list)
          ? (list as { email?: unknown; primary?: unknown; verified?: unknown }[]).find(
              (e) => e.primary === true && e.verified === true && typeof e.email === 'string',
            )
          : undefined;
        if (verified) Object.assign(claims, { email: verified.email, email_verified: true });
      }
    }
    if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub === 'undefined')
      throw new UpstreamError(`the upstream ${p.name} did not name the person (no subject)`);
    return { subject: claims.sub, claims, tokens };
  }

  /** GETs one of the provider's user APIs with its access token. */
  async #userApi(url: string, accessToken: string): Promise<unknown> {
    const p = this.provider;
    const response = await fetch(url, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        'user-agent': 'mcp-fw',
      },
      signal: AbortSignal.timeout(this.timeoutMs),
    }).catch((error: Error) => {
      throw new UpstreamError(`the upstream ${p.name}'s user API ${url} failed: ${error.message}`);
    });
    if (!response.ok)
      throw new UpstreamError(
        `the upstream ${p.name}'s user API ${url} answered HTTP ${response.status}`,
      );
    return response.json();
  }

  /** New upstream tokens from its refresh token. */
  async refresh(refreshToken: string): Promise<UpstreamTokens> {
    const json = await this.#tokenRequest(
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    );
    const tokens = tokensOf(json);
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  }
}

function tokensOf(json: Record<string, unknown>): UpstreamTokens {
  return {
    accessToken: json.access_token as string,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : undefined,
    expiresAt:
      typeof json.expires_in === 'number'
        ? Math.floor(Date.now() / 1000) + json.expires_in
        : undefined,
  };
}
