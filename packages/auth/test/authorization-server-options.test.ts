import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import {
  authorizationServer,
  MemoryAuthorizationStore,
  oidcUpstream,
  upstreams,
  type AuthorizationStore,
} from '@mcp-fw/auth/server';
import {
  authorizationUrl,
  Browser,
  callTool,
  httpsHost,
  ownAuthorizationServer,
  pkce,
  registerClient,
  selfSigned,
  signInByHand,
  tokenRequest,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// The options of authorizationServer(): client kinds, registration off, the metadata document
// cache, remembered consent, upstream kinds, and the refusals at startup.

const REDIRECT = 'http://127.0.0.1:9/callback';
const upstream = oidcUpstream({ issuer: 'https://idp.example', clientId: 'c' });

async function result(response: Response): Promise<{ text: string; isError?: boolean }> {
  const body = (await response.json()) as {
    result: { content: { text: string }[]; isError?: boolean };
  };
  return { text: body.result.content[0].text, isError: body.result.isError };
}

/** A request as the authorization server's routes see it, for calling them without a server. */
const view = (method: string, path: string, body = '') => ({
  method,
  url: new URL(`http://127.0.0.1:1${path}`),
  path,
  header: () => undefined,
  text: async () => body,
  signal: new AbortController().signal,
  onAbort: () => {},
});

const written: string[] = [];
/** A memory store that records every value written (to check what is kept in clear). */
class Recording extends MemoryAuthorizationStore {
  override async set(key: string, value: string, ttlMs: number) {
    written.push(value);
    return super.set(key, value, ttlMs);
  }
}

// One server for the tests that need no option of their own.
let shared: OwnAuthorizationServer;
beforeAll(async () => {
  shared = await ownAuthorizationServer({
    store: new Recording(),
    clients: [
      { clientId: 'desk-app', redirectUris: [REDIRECT], name: 'Desk app' },
      { clientId: 'web-app', redirectUris: [REDIRECT], clientSecret: 's3cret-s3cret' },
    ],
  });
});
afterAll(() => shared?.close());

describe('authorizationServer() options', () => {
  it('pre-registered clients: a public one with PKCE, a confidential one that must prove its secret', async () => {
    const env = shared;
    const pub = await signInByHand(env.origin, env.resource, { clientId: 'desk-app' });
    expect(pub.tokens.status).toBe(200);
    expect(pub.browser.consentPage?.html).toContain('Desk app');
    expect(pub.browser.consentPage?.html).toContain('not verified by a domain');
    // The confidential client without its secret, then with a wrong one, then right (Basic).
    const { challenge, verifier } = pkce();
    const params = await new Browser().go(
      authorizationUrl(env.origin, {
        client_id: 'web-app',
        redirect_uri: REDIRECT,
        code_challenge: challenge,
      }),
      REDIRECT,
    );
    const fields = {
      grant_type: 'authorization_code',
      code: params.get('code')!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    };
    expect(await tokenRequest(env.origin, { ...fields, client_id: 'web-app' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(
      await tokenRequest(env.origin, { ...fields, client_id: 'web-app', client_secret: 'wrong' }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const basic = await fetch(`${env.origin}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${btoa('web-app:s3cret-s3cret')}`,
      },
      body: new URLSearchParams(fields).toString(),
    });
    expect(basic.status).toBe(200);
  });

  it('registration can be turned off: no registration_endpoint, /register 404, and an unknown client is told to use a metadata document', async () => {
    const env = await ownAuthorizationServer({ registration: false });
    try {
      const metadata = (await (
        await fetch(`${env.origin}/.well-known/oauth-authorization-server`)
      ).json()) as Record<string, unknown>;
      expect(metadata.registration_endpoint).toBeUndefined();
      const register = await fetch(`${env.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
      expect(register.status).toBe(404);
      const answer = await fetch(
        authorizationUrl(env.origin, {
          client_id: 'dyn_unknown',
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
        }),
        { redirect: 'manual' },
      );
      expect(answer.status).toBe(400);
      const page = await answer.text();
      expect(page).toContain('use a Client ID Metadata Document URL as client_id');
      expect(page).not.toContain('register at');
    } finally {
      await env.close();
    }
  });

  it('caches a Client ID Metadata Document: two sign-ins, one fetch', async () => {
    const tls = selfSigned();
    let fetches = 0;
    const host = await httpsHost(tls, (path, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: `${host.origin}${path}`,
          client_name: 'Cached',
          redirect_uris: [REDIRECT],
        }),
      );
    });
    const env = await ownAuthorizationServer({
      clientMetadataDocuments: { allowPrivateAddresses: true, ca: tls.cert },
    });
    try {
      const clientId = `${host.origin}/client.json`;
      for (let i = 0; i < 2; i++) {
        const { tokens } = await signInByHand(env.origin, env.resource, { clientId });
        expect(tokens.status).toBe(200);
      }
      expect(fetches).toBe(1);
    } finally {
      await env.close();
      await host.close();
    }
  });

  it('remembers consent per person and client: the second sign-in for the same scopes skips the page, wider scopes ask again', async () => {
    const env = shared;
    const clientId = await registerClient(env.origin, REDIRECT);
    const first = await signInByHand(env.origin, env.resource, { clientId, scope: 'notes:read' });
    expect(first.browser.consentPage).toBeDefined();
    const again = new Browser();
    const second = await signInByHand(env.origin, env.resource, {
      clientId,
      scope: 'notes:read',
      browser: again,
    });
    expect(second.tokens.status).toBe(200);
    expect(again.consentPage).toBeUndefined();
    const wider = new Browser();
    await signInByHand(env.origin, env.resource, {
      clientId,
      scope: 'notes:read notes:write',
      browser: wider,
    });
    expect(wider.consentPage?.html).toContain('notes:write');
    // Another client of the same person is asked, whatever the first was granted.
    const other = new Browser();
    await signInByHand(env.origin, env.resource, { scope: 'notes:read', browser: other });
    expect(other.consentPage).toBeDefined();
  });

  it('a plain OAuth upstream (GitHub-style, no ID token) names the person by its user API, and its email is not trusted', async () => {
    const env = await ownAuthorizationServer(
      {},
      {
        upstream: (idp) => ({
          name: 'oauth-only',
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          scopes: ['openid', 'email'],
          authorizationEndpoint: `${idp.issuer}/auth`,
          tokenEndpoint: `${idp.issuer}/token`,
          userApi: { url: `${idp.issuer}/me`, subject: 'sub', email: 'email' },
        }),
      },
    );
    try {
      const { tokens } = await signInByHand(env.origin, env.resource);
      const me = JSON.parse(
        (await result(await callTool(env.resource, tokens.body.access_token as string, 'whoami')))
          .text,
      );
      expect(me).toMatchObject({ subject: 'alice', claims: { idp: 'oauth-only' } });
      expect(me.claims.email).toBeUndefined();
    } finally {
      await env.close();
    }
  });

  it("a plain OAuth upstream's emails API (GitHub's /user/emails) gives the primary verified email", async () => {
    // GitHub's emails API, standing on oidc-provider: it answers only for a live upstream token.
    let idpIssuer = '';
    const emails = createHttpServer(async (req, res) => {
      const me = await fetch(`${idpIssuer}/me`, {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      if (!me.ok) {
        res.writeHead(401).end();
        return;
      }
      const { sub } = (await me.json()) as { sub: string };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          { email: `${sub}@old.example`, primary: false, verified: true },
          { email: `${sub}@verified.example`, primary: true, verified: true },
        ]),
      );
    });
    await new Promise<void>((resolve) => emails.listen(0, '127.0.0.1', resolve));
    const env = await ownAuthorizationServer(
      { requireVerifiedEmail: true },
      {
        upstream: (idp) => {
          idpIssuer = idp.issuer;
          return {
            name: 'github-like',
            clientId: idp.clientId,
            clientSecret: idp.clientSecret,
            scopes: ['openid', 'email'],
            authorizationEndpoint: `${idp.issuer}/auth`,
            tokenEndpoint: `${idp.issuer}/token`,
            userApi: {
              url: `${idp.issuer}/me`,
              subject: 'sub',
              email: 'email',
              emails: `http://127.0.0.1:${(emails.address() as AddressInfo).port}/user/emails`,
            },
          };
        },
      },
    );
    try {
      const { tokens } = await signInByHand(env.origin, env.resource);
      const me = JSON.parse(
        (await result(await callTool(env.resource, tokens.body.access_token as string, 'whoami')))
          .text,
      );
      expect(me.claims).toMatchObject({ email: 'alice@verified.example', email_verified: true });
    } finally {
      await env.close();
      emails.close();
    }
  });

  it('refreshes the upstream token when it has expired, so a tool keeps calling the upstream as the person', async () => {
    const env = await ownAuthorizationServer({}, { accessTokenTtl: 1 });
    try {
      const { tokens } = await signInByHand(env.origin, env.resource);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const { text, isError } = await result(
        await callTool(env.resource, tokens.body.access_token as string, 'upstream', {
          url: `${env.idp.issuer}/me`,
        }),
      );
      expect(isError).toBeFalsy();
      expect(JSON.parse(text)).toMatchObject({ sub: 'alice' });
    } finally {
      await env.close();
    }
  });

  it('fails at startup on a shared store without secret and signingKey, a short secret, or a key that is not ES256', async () => {
    const shared: AuthorizationStore = new (class {
      get = async () => undefined;
      set = async () => {};
      take = async () => undefined;
      delete = async () => {};
    })();
    const base = { resource: 'http://127.0.0.1:1/mcp', scopes: ['a'], upstream };
    await expect(authorizationServer({ ...base, store: shared })).rejects.toThrow(
      /shared store needs the same secret and signingKey/,
    );
    await expect(authorizationServer({ ...base, secret: 'short' })).rejects.toThrow(
      /at least 32 characters/,
    );
    const rsa = await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey);
    await expect(authorizationServer({ ...base, signingKey: rsa })).rejects.toThrow(
      /private EC P-256 JWK/,
    );
    await expect(authorizationServer({ ...base, scopes: [] })).rejects.toThrow(/name the scopes/);
    await expect(
      authorizationServer({ ...base, upstream: { name: 'x', clientId: 'c', scopes: [] } }),
    ).rejects.toThrow(
      /needs an issuer \(OIDC discovery\) or authorizationEndpoint, tokenEndpoint and userApi/,
    );
    const ok = await authorizationServer({ ...base, store: new MemoryAuthorizationStore() });
    expect(ok.issuer).toBe('http://127.0.0.1:1');
  });

  it('an issuer with a path serves its endpoints under that path (RFC 8414 metadata names them, and they answer)', async () => {
    const as = await authorizationServer({
      resource: 'http://127.0.0.1:1/mcp',
      issuer: 'http://127.0.0.1:1/tenant',
      scopes: ['a'],
      upstream,
    });
    const metadata = await as.routes(view('GET', '/.well-known/oauth-authorization-server/tenant'));
    const document = JSON.parse(metadata!.body!) as Record<string, string>;
    expect(document.token_endpoint).toBe('http://127.0.0.1:1/tenant/oauth/token');
    expect(document.jwks_uri).toBe('http://127.0.0.1:1/tenant/oauth/jwks');
    const jwks = await as.routes(view('GET', '/tenant/oauth/jwks'));
    expect(jwks?.status).toBe(200);
    expect(JSON.parse(jwks!.body!).keys).toHaveLength(1);
    const token = await as.routes(
      view('POST', '/tenant/oauth/token', 'grant_type=authorization_code&code=nope&client_id=x'),
    );
    // An unknown client: the token endpoint itself answers, with the OAuth error.
    expect(token?.status).toBe(401);
    expect(JSON.parse(token!.body!)).toMatchObject({ error: 'invalid_client' });
    // The endpoints are not also served at the origin's root.
    expect(await as.routes(view('GET', '/oauth/jwks'))).toBeUndefined();
  });

  it('a store that fails answers 503 temporarily_unavailable with Retry-After, never a crash or a hang', async () => {
    const failing: AuthorizationStore = {
      get: async () => {
        throw new Error('store down');
      },
      set: async () => {
        throw new Error('store down');
      },
      take: async () => {
        throw new Error('store down');
      },
      delete: async () => {
        throw new Error('store down');
      },
    };
    const as = await authorizationServer({
      resource: 'http://127.0.0.1:1/mcp',
      scopes: ['a'],
      upstream,
      store: failing,
      secret: 'x'.repeat(32),
      signingKey: await exportJWK(
        (await generateKeyPair('ES256', { extractable: true })).privateKey,
      ),
    });
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const token = await as.routes(
        view('POST', '/oauth/token', 'grant_type=refresh_token&refresh_token=x&client_id=dyn_x'),
      );
      expect(token?.status).toBe(503);
      expect(token?.headers?.['retry-after']).toBe('5');
      expect(JSON.parse(token!.body!)).toMatchObject({ error: 'temporarily_unavailable' });
      const page = await as.routes(view('POST', '/oauth/authorize', 'client_id=dyn_x'));
      expect(page?.status).toBe(503);
      expect(page?.body).toContain('store down');
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('store down');
  });

  it('keeps the upstream tokens sealed in the store: no stored value holds them in clear', async () => {
    const env = shared;
    const { tokens } = await signInByHand(env.origin, env.resource);
    // The tool proves a live upstream token exists (it calls the upstream with it).
    const { text } = await result(
      await callTool(env.resource, tokens.body.access_token as string, 'upstream', {
        url: `${env.idp.issuer}/me`,
      }),
    );
    expect(JSON.parse(text)).toMatchObject({ sub: 'alice' });
    for (const value of written) expect(value).not.toMatch(/accessToken|refreshToken|access_token/);
    const sealed = written
      .map((v) => {
        try {
          return (JSON.parse(v) as { upstream?: unknown }).upstream;
        } catch {
          return undefined;
        }
      })
      .filter((u): u is string => typeof u === 'string');
    expect(sealed.length).toBeGreaterThan(0);
    for (const value of sealed) expect(value).toMatch(/^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
  });

  it('revoking an access token (RFC 7009) ends its sign-in; another client cannot revoke it', async () => {
    const env = shared;
    const { tokens, clientId } = await signInByHand(env.origin, env.resource);
    const access = tokens.body.access_token as string;
    const revoke = (client: string) =>
      fetch(`${env.origin}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: access,
          token_type_hint: 'access_token',
          client_id: client,
        }),
      });
    const stranger = await registerClient(env.origin, REDIRECT, 'stranger');
    expect((await revoke(stranger)).status).toBe(200);
    expect((await callTool(env.resource, access, 'whoami')).status).toBe(200);
    expect((await revoke(clientId)).status).toBe(200);
    expect((await callTool(env.resource, access, 'whoami')).status).toBe(401);
    const refresh = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('presets carry each provider’s endpoints and scopes as data', () => {
    const c = { clientId: 'id', clientSecret: 'secret' };
    expect(upstreams.github(c)).toMatchObject({
      name: 'github',
      authorizationEndpoint: 'https://github.com/login/oauth/authorize',
      tokenEndpoint: 'https://github.com/login/oauth/access_token',
      userApi: {
        url: 'https://api.github.com/user',
        subject: 'id',
        emails: 'https://api.github.com/user/emails',
      },
      scopes: ['read:user', 'user:email'],
    });
    expect(upstreams.github(c).issuer).toBeUndefined();
    expect(upstreams.google(c)).toMatchObject({
      issuer: 'https://accounts.google.com',
      authorizationParams: { access_type: 'offline' },
    });
    expect(upstreams.entra({ ...c, tenant: 'contoso.onmicrosoft.com' }).issuer).toBe(
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
    );
    expect(upstreams.auth0({ ...c, domain: 'ex.us.auth0.com' }).issuer).toBe(
      'https://ex.us.auth0.com',
    );
    expect(upstreams.okta({ ...c, domain: 'ex.okta.com' }).issuer).toBe(
      'https://ex.okta.com/oauth2/default',
    );
    expect(upstreams.keycloak({ ...c, baseUrl: 'https://sso.ex.com/', realm: 'main' }).issuer).toBe(
      'https://sso.ex.com/realms/main',
    );
    expect(upstreams.workos({ ...c, domain: 'ex.authkit.app' }).issuer).toBe(
      'https://ex.authkit.app',
    );
    for (const preset of [upstreams.google(c), upstreams.entra({ ...c, tenant: 't' })])
      expect(preset.scopes).toContain('openid');
  });
});
