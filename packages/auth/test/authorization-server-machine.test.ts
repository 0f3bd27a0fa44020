import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeJwt,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider as ClientCredentials1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import {
  Client as Client2,
  CrossAppAccessProvider as CrossAppAccess2,
  PrivateKeyJwtProvider as PrivateKeyJwt2,
  StreamableHTTPClientTransport as Transport2,
} from '@modelcontextprotocol/client';
import { clientCredentials, connect, enterpriseManaged } from '@mcp-fw/client';
import { authorizationServer, upstreams } from '@mcp-fw/auth/server';
import { jwksServer } from './support/issuer.ts';
import { enterpriseIdp, type EnterpriseIdp } from './support/enterprise-idp.ts';
import {
  authorizationUrl,
  callTool,
  ownAuthorizationServer,
  pkce,
  tokenRequest,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// Machine to machine on our authorization server (issue #36 scope 3): the
// `oauth-client-credentials` extension (client_secret_basic, client_secret_post,
// private_key_jwt with inline keys or a jwks_uri) and the enterprise-managed authorization
// extension (an ID-JAG from a trusted IdP, jwt-bearer grant). Attacks are named after
// themselves; real clients (ours, the official SDK 1.x and client 2.x) call the protected
// server with the tokens.

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SECRET = 'reporting-secret-0123456789abcdef0123456789';
const ENTERPRISE_SECRET = 'enterprise-secret-0123456789abcdef0123456789';
/** What `openssl rand -base64 32` gives: `+`, `/` and `=` in it. */
const BASE64_SECRET = 'q+Z/7Lm3vW0x+YpQk/Rt2s9Hn4Ue8Jd1Cf6Ga5Bb0I=';

let env: OwnAuthorizationServer;
let idp: EnterpriseIdp;
let clientKey: { privateKey: CryptoKey; pem: string; jwk: JWK };
let uriKey: { privateKey: CryptoKey; jwk: JWK };
let keyHost: Awaited<ReturnType<typeof jwksServer>>;

async function esKey(kid: string) {
  const pair = await generateKeyPair('ES256', { extractable: true });
  return {
    privateKey: pair.privateKey,
    pem: await exportPKCS8(pair.privateKey),
    jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' },
  };
}

beforeAll(async () => {
  clientKey = await esKey('reporting-jwt-1');
  uriKey = await esKey('reporting-uri-1');
  keyHost = await jwksServer(() => [uriKey.jwk]);
  idp = await enterpriseIdp({
    clients: {
      'agent-at-idp': { secret: 'idp-secret', mcpClientId: 'enterprise-agent' },
      'other-at-idp': { secret: 'idp-secret-2', mcpClientId: 'other-agent' },
    },
  });
  env = await ownAuthorizationServer({
    clients: [
      {
        clientId: 'reporting',
        clientSecret: SECRET,
        grantTypes: ['client_credentials'],
        scopes: ['notes:read'],
      },
      {
        clientId: 'reporting-jwt',
        jwks: { keys: [clientKey.jwk] },
        grantTypes: ['client_credentials'],
      },
      {
        clientId: 'reporting-uri',
        jwksUri: keyHost.url,
        grantTypes: ['client_credentials'],
        scopes: ['notes:read'],
      },
      {
        clientId: 'base64-secret',
        clientSecret: BASE64_SECRET,
        grantTypes: ['client_credentials'],
      },
      { clientId: 'people-app', redirectUris: ['http://127.0.0.1:9/callback'] },
      {
        clientId: 'people-app-confidential',
        clientSecret: 'people-secret-0123456789abcdef0123456789',
        redirectUris: ['http://127.0.0.1:9/callback'],
      },
      {
        clientId: 'enterprise-agent',
        clientSecret: ENTERPRISE_SECRET,
        grantTypes: [JWT_BEARER],
      },
      {
        clientId: 'other-agent',
        clientSecret: 'other-secret-0123456789abcdef0123456789ab',
        grantTypes: [JWT_BEARER],
      },
    ],
    trustedIdentityProviders: [
      { issuer: idp.issuer, jwksUri: idp.jwksUri },
      // An IdP whose key set cannot be fetched (nothing listens on port 9).
      { issuer: 'https://down-idp.example', jwksUri: 'http://127.0.0.1:9/jwks' },
    ],
  });
});
afterAll(async () => {
  await env?.close();
  await idp?.close();
  await keyHost?.close();
});

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function post(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${env.origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A private_key_jwt assertion for `clientId`; `claims` override, `key` signs. */
function assertion(
  clientId: string,
  key: CryptoKey,
  claims: Record<string, unknown> = {},
  kid = 'reporting-jwt-1',
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: clientId,
    sub: clientId,
    aud: env.origin,
    iat: now,
    exp: now + 120,
    jti: crypto.randomUUID(),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid })
    .sign(key);
}

function claimsOf(result: unknown): Record<string, unknown> {
  const text = (result as { content: { text: string }[] }).content[0].text;
  return JSON.parse(text) as Record<string, unknown>;
}

async function whoami(token: string): Promise<Record<string, unknown>> {
  const response = await callTool(env.resource, token, 'whoami');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: unknown };
  return claimsOf(body.result);
}

describe('client credentials (the oauth-client-credentials extension)', () => {
  it('the metadata advertises client_credentials, jwt-bearer, private_key_jwt and its signing algorithms', async () => {
    const metadata = (await (
      await fetch(`${env.origin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, string[]>;
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['client_credentials', JWT_BEARER]),
    );
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt']),
    );
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).toContain('ES256');
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).not.toContain('HS256');
  });

  it('client_secret_basic: the token is bound to the resource, limited to the client’s scopes, without a refresh token, and calls the tool', async () => {
    const { status, body } = await post(
      { grant_type: 'client_credentials', resource: env.resource },
      { authorization: basic('reporting', SECRET) },
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'notes:read' });
    expect(body.refresh_token).toBeUndefined();
    const claims = decodeJwt(String(body.access_token));
    expect(claims).toMatchObject({
      aud: env.resource,
      sub: 'reporting',
      client_id: 'reporting',
      idp: 'client_credentials',
    });
    expect(await whoami(String(body.access_token))).toMatchObject({
      subject: 'reporting',
      clientId: 'reporting',
      scopes: ['notes:read'],
    });
  });

  it('a base64 secret (with + and /) matches whether Basic carries it form-encoded or raw, as SDK 1.x sends it', async () => {
    const raw = `Basic ${btoa(`base64-secret:${BASE64_SECRET}`)}`;
    for (const authorization of [basic('base64-secret', BASE64_SECRET), raw]) {
      const { status, body } = await post({ grant_type: 'client_credentials' }, { authorization });
      expect(status, JSON.stringify(body)).toBe(200);
    }
    const wrong = `Basic ${btoa(`base64-secret:${BASE64_SECRET.replace('+', ' ')}`)}`;
    expect(
      (await post({ grant_type: 'client_credentials' }, { authorization: wrong })).status,
    ).toBe(401);
  });

  it('client_secret_post works the same', async () => {
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_id: 'reporting',
      client_secret: SECRET,
      scope: 'notes:read',
    });
    expect(status).toBe(200);
    expect(body.scope).toBe('notes:read');
  });

  it('private_key_jwt with the client’s inline keys (aud = issuer or token endpoint)', async () => {
    for (const aud of [env.origin, `${env.origin}/oauth/token`]) {
      const { status, body } = await post({
        grant_type: 'client_credentials',
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: await assertion('reporting-jwt', clientKey.privateKey, { aud }),
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.scope).toBe('notes:read notes:write');
    }
  });

  it('private_key_jwt with the client’s jwks_uri (fetched from its key server)', async () => {
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_id: 'reporting-uri',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting-uri', uriKey.privateKey, {}, 'reporting-uri-1'),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(keyHost.fetches()).toBeGreaterThan(0);
  });

  it('a wrong secret is refused with 401 invalid_client', async () => {
    for (const attempt of [
      post({ grant_type: 'client_credentials' }, { authorization: basic('reporting', 'wrong') }),
      post({ grant_type: 'client_credentials', client_id: 'reporting', client_secret: 'nope' }),
      post({ grant_type: 'client_credentials', client_id: 'reporting' }),
    ]) {
      const { status, body } = await attempt;
      expect(status).toBe(401);
      expect(body).toMatchObject({ error: 'invalid_client' });
      expect(body.access_token).toBeUndefined();
    }
  });

  it('an assertion signed by another key is refused', async () => {
    const stranger = await esKey('reporting-jwt-1');
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting-jwt', stranger.privateKey),
    });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
    expect(body.error_description).toMatch(/not signed by a key registered for the client/);
  });

  it('an assertion with a symmetric algorithm (HS256, the public key used as a shared secret) is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256', kid: 'reporting-jwt-1' })
      .setIssuer('reporting-jwt')
      .setSubject('reporting-jwt')
      .setAudience(env.origin)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(JSON.stringify(clientKey.jwk)));
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: forged,
    });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
    expect(body.access_token).toBeUndefined();
  });

  it('malformed assertions, grants and Basic headers get the precise OAuth error, never a 5xx', async () => {
    const cases: [Record<string, string>, Record<string, string>, number, string][] = [
      [
        {
          grant_type: 'client_credentials',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: 'x.y.z',
        },
        {},
        401,
        'invalid_client',
      ],
      [
        {
          grant_type: 'client_credentials',
          client_assertion: await assertion('reporting-jwt', clientKey.privateKey),
        },
        {},
        401,
        'invalid_client',
      ],
      [
        { grant_type: 'client_credentials' },
        { authorization: 'Basic Zm9vYmFy' },
        401,
        'invalid_client',
      ],
      [
        { grant_type: JWT_BEARER, assertion: 'not-a-jwt' },
        { authorization: basic('enterprise-agent', ENTERPRISE_SECRET) },
        400,
        'invalid_grant',
      ],
      [
        { grant_type: JWT_BEARER },
        { authorization: basic('enterprise-agent', ENTERPRISE_SECRET) },
        400,
        'invalid_request',
      ],
      [
        { grant_type: 'password' },
        { authorization: basic('reporting', SECRET) },
        400,
        'unsupported_grant_type',
      ],
    ];
    for (const [fields, headers, status, error] of cases) {
      const answer = await post(fields, headers);
      expect(answer.status, JSON.stringify(fields)).toBe(status);
      expect(answer.body.error).toBe(error);
      expect(String(answer.body.error_description).length).toBeGreaterThan(10);
    }
  });

  it('a replayed jti is refused', async () => {
    const once = await assertion('reporting-jwt', clientKey.privateKey);
    const fields = {
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: once,
    };
    expect((await post(fields)).status).toBe(200);
    const again = await post(fields);
    expect(again.status).toBe(401);
    expect(again.body.error_description).toMatch(/already used \(jti/);
  });

  it('an expired assertion is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting-jwt', clientKey.privateKey, {
        iat: now - 600,
        exp: now - 300,
      }),
    });
    expect(status).toBe(401);
    expect(body.error_description).toMatch(/has expired/);
  });

  it('an assertion addressed to another server (aud) or valid for hours is refused', async () => {
    const wrongAud = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting-jwt', clientKey.privateKey, {
        aud: 'https://other.example',
      }),
    });
    expect(wrongAud.status).toBe(401);
    expect(wrongAud.body.error_description).toMatch(/not addressed to this server/);
    const long = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting-jwt', clientKey.privateKey, {
        exp: Math.floor(Date.now() / 1000) + 86_400,
      }),
    });
    expect(long.status).toBe(401);
    expect(long.body.error_description).toMatch(/valid for more than 3600 s/);
  });

  it('a client with keys cannot fall back to a secret, nor a secret client to an assertion', async () => {
    const noAssertion = await post({
      grant_type: 'client_credentials',
      client_id: 'reporting-jwt',
    });
    expect(noAssertion.status).toBe(401);
    expect(noAssertion.body.error_description).toMatch(/send a client_assertion/);
    const secretClientAssertion = await post({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion('reporting', clientKey.privateKey),
    });
    expect(secretClientAssertion.status).toBe(401);
    expect(secretClientAssertion.body.error_description).toMatch(/has no registered keys/);
  });

  it('scope escalation beyond the client’s allowed scopes is refused (invalid_scope)', async () => {
    const { status, body } = await post(
      { grant_type: 'client_credentials', scope: 'notes:read notes:write' },
      { authorization: basic('reporting', SECRET) },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_scope' });
    expect(body.error_description).toMatch(/may not be granted notes:write/);
    const unknown = await post(
      { grant_type: 'client_credentials', scope: 'admin' },
      { authorization: basic('reporting', SECRET) },
    );
    expect(unknown.body.error).toBe('invalid_scope');
  });

  it('a token for another resource is refused (invalid_target)', async () => {
    const { status, body } = await post(
      { grant_type: 'client_credentials', resource: 'https://elsewhere.example/mcp' },
      { authorization: basic('reporting', SECRET) },
    );
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_target');
  });

  it('client credentials for a public client is refused', async () => {
    const { status, body } = await post({
      grant_type: 'client_credentials',
      client_id: 'people-app',
    });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
    expect(body.error_description).toMatch(/public client/);
  });

  it('a confidential client not granted client_credentials is refused (unauthorized_client)', async () => {
    const { status, body } = await post(
      { grant_type: 'client_credentials' },
      {
        authorization: basic('people-app-confidential', 'people-secret-0123456789abcdef0123456789'),
      },
    );
    expect(status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
  });

  it('a machine client cannot start a person’s sign-in, nor use the code grant', async () => {
    const page = await fetch(
      authorizationUrl(env.origin, {
        client_id: 'reporting',
        redirect_uri: 'http://127.0.0.1:9/callback',
        code_challenge: pkce().challenge,
      }),
      { redirect: 'manual' },
    );
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('is a machine client');
    const code = await post(
      { grant_type: 'authorization_code', code: 'x', code_verifier: 'y' },
      { authorization: basic('reporting', SECRET) },
    );
    expect(code.body.error).toBe('unauthorized_client');
  });

  it('a machine token is revoked by /revoke, and lends no upstream token (ctx.auth.upstream is absent)', async () => {
    const { body } = await post(
      { grant_type: 'client_credentials' },
      { authorization: basic('reporting', SECRET) },
    );
    const token = String(body.access_token);
    expect((await whoami(token)).upstream).toBeUndefined();
    const revoked = await fetch(`${env.origin}/oauth/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('reporting', SECRET),
      },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await callTool(env.resource, token, 'whoami')).status).toBe(401);
  });

  it('a machine client that cannot work fails at startup, naming the fix', async () => {
    const base = {
      resource: 'http://127.0.0.1:1/mcp',
      scopes: ['notes:read'],
      upstream: upstreams.github({ clientId: 'x', clientSecret: 'y' }),
    };
    await expect(
      authorizationServer({
        ...base,
        clients: [{ clientId: 'm', grantTypes: ['client_credentials'] }],
      }),
    ).rejects.toThrow(/need a confidential client: give it a clientSecret or keys/);
    await expect(
      authorizationServer({
        ...base,
        clients: [{ clientId: 'm', clientSecret: 'short', grantTypes: ['client_credentials'] }],
      }),
    ).rejects.toThrow(/at least 32 characters/);
    await expect(
      authorizationServer({
        ...base,
        clients: [
          {
            clientId: 'm',
            jwks: { keys: [{ ...clientKey.jwk, d: 'secret' }] },
            grantTypes: ['client_credentials'],
          },
        ],
      }),
    ).rejects.toThrow(/private key \(d\)/);
    await expect(
      authorizationServer({
        ...base,
        clients: [
          {
            clientId: 'm',
            clientSecret: SECRET,
            grantTypes: ['client_credentials'],
            scopes: ['admin'],
          },
        ],
      }),
    ).rejects.toThrow(/scopes admin are not among the server's scopes/);
    await expect(authorizationServer({ ...base, clients: [{ clientId: 'p' }] })).rejects.toThrow(
      /list its redirectUris/,
    );
  });
});

describe('real clients with client credentials through our authorization server', () => {
  it('@mcp-fw/client clientCredentials() with a secret calls the protected server (2026-07-28 and 2025-11-25)', async () => {
    for (const protocolVersion of ['2026-07-28', '2025-11-25']) {
      const client = await connect(env.resource, {
        protocolVersion,
        auth: clientCredentials({ clientId: 'reporting', clientSecret: SECRET }),
      });
      try {
        expect(claimsOf(await client.callTool('whoami', {}))).toMatchObject({
          subject: 'reporting',
          scopes: ['notes:read'],
        });
      } finally {
        await client.close();
      }
    }
  });

  it('@mcp-fw/client clientCredentials() with private_key_jwt calls the protected server', async () => {
    const client = await connect(env.resource, {
      auth: clientCredentials({ clientId: 'reporting-jwt', privateKey: clientKey.pem }),
    });
    try {
      expect(claimsOf(await client.callTool('whoami', {}))).toMatchObject({
        subject: 'reporting-jwt',
        scopes: ['notes:read'],
      });
    } finally {
      await client.close();
    }
  });

  it('official SDK 1.x ClientCredentialsProvider calls the protected server', async () => {
    const client = new Client1({ name: 'v1-machine', version: '1.0.0' });
    await client.connect(
      new Transport1(new URL(env.resource), {
        authProvider: new ClientCredentials1({
          clientId: 'reporting',
          clientSecret: SECRET,
          expectedIssuer: env.origin,
        }),
      }),
    );
    try {
      expect(claimsOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({
        subject: 'reporting',
        clientId: 'reporting',
      });
    } finally {
      await client.close();
    }
  });

  it('official client 2.x PrivateKeyJwtProvider calls the protected server', async () => {
    const client = new Client2({ name: 'v2-machine', version: '1.0.0' });
    await client.connect(
      new Transport2(new URL(env.resource), {
        authProvider: new PrivateKeyJwt2({
          clientId: 'reporting-jwt',
          privateKey: clientKey.pem,
          algorithm: 'ES256',
          expectedIssuer: env.origin,
        }),
      }),
    );
    try {
      expect(claimsOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({
        subject: 'reporting-jwt',
        scopes: ['notes:read'],
      });
    } finally {
      await client.close();
    }
  });
});

describe('enterprise-managed authorization (ID-JAG, jwt-bearer grant)', () => {
  const base = () => ({
    audience: env.origin,
    resource: env.resource,
    clientId: 'enterprise-agent',
  });
  const present = (jag: string, id = 'enterprise-agent', secret = ENTERPRISE_SECRET) =>
    post({ grant_type: JWT_BEARER, assertion: jag }, { authorization: basic(id, secret) });

  it('an ID-JAG from the trusted IdP becomes a token bound to the resource, for the IdP’s person', async () => {
    const { status, body } = await present(await idp.idJag(base()));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'notes:read' });
    expect(body.refresh_token).toBeUndefined();
    expect(decodeJwt(String(body.access_token))).toMatchObject({
      aud: env.resource,
      sub: 'employee-42',
      client_id: 'enterprise-agent',
      idp: idp.issuer,
      email: 'alex@acme.example',
    });
    expect(await whoami(String(body.access_token))).toMatchObject({
      subject: 'employee-42',
      clientId: 'enterprise-agent',
    });
  });

  it('an assertion whose typ is not oauth-id-jag+jwt is refused (wrong typ)', async () => {
    for (const typ of ['JWT', 'at+jwt', undefined]) {
      const { status, body } = await present(await idp.idJag(base(), {}, { typ }));
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_grant');
      expect(body.error_description).toMatch(/not oauth-id-jag\+jwt/);
    }
  });

  it('an ID-JAG addressed to another authorization server is refused (wrong aud)', async () => {
    const { status, body } = await present(
      await idp.idJag({ ...base(), audience: 'https://other-as.example' }),
    );
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    expect(body.error_description).toMatch(/not addressed to this server/);
  });

  it('an ID-JAG from an unknown issuer is refused, even when signed by the trusted key', async () => {
    const { status, body } = await present(
      await idp.idJag(base(), { iss: 'https://evil-idp.example' }),
    );
    expect(status).toBe(400);
    expect(body.error_description).toMatch(/not a trusted identity provider/);
  });

  it('an ID-JAG naming the trusted issuer but signed by another key is refused', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const { status, body } = await present(await idp.idJag(base(), {}, {}, privateKey));
    expect(status).toBe(400);
    expect(body.error_description).toMatch(/not signed by a key/);
  });

  it('an ID-JAG from a trusted IdP whose keys cannot be fetched is 503 temporarily_unavailable with Retry-After, not a lie about the grant', async () => {
    const response = await fetch(`${env.origin}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('enterprise-agent', ENTERPRISE_SECRET),
      },
      body: new URLSearchParams({
        grant_type: JWT_BEARER,
        assertion: await idp.idJag(base(), { iss: 'https://down-idp.example' }),
      }).toString(),
    });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await response.json()) as Record<string, string>;
    expect(body.error).toBe('temporarily_unavailable');
    expect(body.error_description).toContain('http://127.0.0.1:9/jwks');
  });

  it('an expired ID-JAG is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { status, body } = await present(
      await idp.idJag(base(), { iat: now - 900, exp: now - 600 }),
    );
    expect(status).toBe(400);
    expect(body.error_description).toMatch(/has expired/);
  });

  it('another client’s ID-JAG is refused', async () => {
    const { status, body } = await present(
      await idp.idJag(base()),
      'other-agent',
      'other-secret-0123456789abcdef0123456789ab',
    );
    expect(status).toBe(400);
    expect(body.error_description).toMatch(/issued to client enterprise-agent, not to other-agent/);
  });

  it('an ID-JAG for another resource is refused (resource mismatch)', async () => {
    const { status, body } = await present(
      await idp.idJag({ ...base(), resource: 'https://other-mcp.example/mcp' }),
    );
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_target');
  });

  it('a replayed ID-JAG is refused', async () => {
    const jag = await idp.idJag(base());
    expect((await present(jag)).status).toBe(200);
    const again = await present(jag);
    expect(again.status).toBe(400);
    expect(again.body.error_description).toMatch(/already used/);
  });

  it('a scope beyond what the ID-JAG grants is refused; unknown scopes in it are dropped', async () => {
    const escalated = await post(
      { grant_type: JWT_BEARER, assertion: await idp.idJag(base()), scope: 'notes:write' },
      { authorization: basic('enterprise-agent', ENTERPRISE_SECRET) },
    );
    expect(escalated.body.error).toBe('invalid_scope');
    const wide = await present(await idp.idJag(base(), { scope: 'notes:read admin' }));
    expect(wide.body.scope).toBe('notes:read');
  });

  it('the jwt-bearer grant needs the client’s own credentials and the grant in its grantTypes', async () => {
    const wrongSecret = await present(await idp.idJag(base()), 'enterprise-agent', 'wrong');
    expect(wrongSecret.status).toBe(401);
    const notAllowed = await post(
      {
        grant_type: JWT_BEARER,
        assertion: await idp.idJag({ ...base(), clientId: 'reporting' }),
      },
      { authorization: basic('reporting', SECRET) },
    );
    expect(notAllowed.body.error).toBe('unauthorized_client');
  });

  it('@mcp-fw/client enterpriseManaged() exchanges the ID token at the IdP and calls the server', async () => {
    const before = idp.exchanges.length;
    const client = await connect(env.resource, {
      auth: enterpriseManaged({
        clientId: 'enterprise-agent',
        clientSecret: ENTERPRISE_SECRET,
        enterprise: {
          idpTokenEndpoint: idp.tokenEndpoint,
          idpClientId: 'agent-at-idp',
          idpClientSecret: 'idp-secret',
          idToken: () => idp.idToken('jordan', 'agent-at-idp'),
        },
      }),
    });
    try {
      expect(claimsOf(await client.callTool('whoami', {}))).toMatchObject({
        subject: 'jordan',
        clientId: 'enterprise-agent',
        claims: { email: 'jordan@acme.example', idp: idp.issuer },
      });
      expect(idp.exchanges.length).toBe(before + 1);
      expect(idp.exchanges.at(-1)).toMatchObject({
        audience: env.origin,
        resource: env.resource,
      });
    } finally {
      await client.close();
    }
  });

  it('official client 2.x CrossAppAccessProvider presents an ID-JAG and calls the server', async () => {
    const client = new Client2({ name: 'v2-enterprise', version: '1.0.0' });
    await client.connect(
      new Transport2(new URL(env.resource), {
        authProvider: new CrossAppAccess2({
          clientId: 'enterprise-agent',
          clientSecret: ENTERPRISE_SECRET,
          expectedIssuer: env.origin,
          assertion: async (ctx: {
            authorizationServerUrl: string | URL;
            resourceUrl: string | URL;
          }) =>
            idp.idJag(
              {
                audience: String(ctx.authorizationServerUrl).replace(/\/$/, ''),
                resource: String(ctx.resourceUrl),
                clientId: 'enterprise-agent',
              },
              { sub: 'sam' },
            ),
        } as never),
      }),
    );
    try {
      expect(claimsOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({
        subject: 'sam',
        clientId: 'enterprise-agent',
      });
    } finally {
      await client.close();
    }
  });
});

describe('a token request with a code still works beside the machine grants', () => {
  it('an unknown code is still invalid_grant for a person’s client', async () => {
    const { status, body } = await tokenRequest(env.origin, {
      grant_type: 'authorization_code',
      client_id: 'people-app',
      code: 'nope',
      code_verifier: pkce().verifier,
      redirect_uri: 'http://127.0.0.1:9/callback',
    });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
  });
});
