import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI } from 'jose';
import type { HttpServerHandle } from '@mcp-fw/core/node';
import { jwtVerifier } from '@mcp-fw/auth';
import { callSecret, counter, protectedServer } from './support/protected.ts';
import { jwksServer, sign, signingKey, type SigningKey } from './support/issuer.ts';

const ISSUER = 'https://issuer.test';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

let key: SigningKey;
/** What the issuer's key set holds now (rotation adds a key). */
let published: import('jose').JWK[] = [];
let rogue: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let target: { handle: HttpServerHandle; resource: string };
let bearer: (claims?: Record<string, unknown>, signer?: SigningKey) => Promise<string>;

beforeAll(async () => {
  key = await signingKey('k1');
  rogue = await signingKey('k-unknown');
  published = [key.jwk];
  jwks = await jwksServer(() => published);
  target = await protectedServer((resource) =>
    jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource, jwksCooldownMs: 0 }),
  );
  bearer = (claims = {}, signer = key) =>
    sign(signer, {
      iss: ISSUER,
      aud: target.resource,
      sub: 'alice',
      client_id: 'app',
      scope: 'notes:read',
      ...claims,
    });
});

afterAll(async () => {
  await target.handle.close();
  await jwks.close();
});

describe('a protected resource refuses every bad token and serves nothing (real JWKS over HTTP)', () => {
  it('serves a valid token and hands the handler its AuthInfo', async () => {
    const before = counter.served;
    const response = await callSecret(target.handle.url, {
      authorization: `Bearer ${await bearer()}`,
    });
    expect(response.status).toBe(200);
    const body = JSON.parse(await response.text());
    const auth = JSON.parse(body.result.content[0].text);
    expect(auth).toMatchObject({ subject: 'alice', clientId: 'app', scopes: ['notes:read'] });
    expect(typeof auth.expiresAt).toBe('number');
    // The token is not in what the handler's JSON shows (it is there, hidden, for token exchange).
    expect(auth).not.toHaveProperty('token');
    expect(counter.served).toBe(before + 1);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const cases: [
    string,
    () => Promise<{ headers?: Record<string, string>; query?: string }>,
    number,
    string | undefined,
    RegExp,
  ][] = [
    ['no token', async () => ({}), 401, undefined, /send an access token/],
    [
      'garbage',
      async () => ({ headers: { authorization: 'Bearer not.a.jwt' } }),
      401,
      'invalid_token',
      /malformed/,
    ],
    [
      'not a Bearer header',
      async () => ({ headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } }),
      401,
      'invalid_token',
      /Bearer <token>/,
    ],
    [
      'alg: none',
      async () => {
        const token = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ iss: ISSUER, aud: target.resource, sub: 'mallory', exp: now() + 600 })}.`;
        return { headers: { authorization: `Bearer ${token}` } };
      },
      401,
      'invalid_token',
      /./,
    ],
    [
      'HMAC signed with the public key',
      async () => {
        const secret = await exportSPKI(key.publicKey);
        const signingInput = `${b64({ alg: 'HS256', kid: 'k1', typ: 'at+jwt' })}.${b64({ iss: ISSUER, aud: target.resource, sub: 'mallory', exp: now() + 600 })}`;
        const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
        return { headers: { authorization: `Bearer ${signingInput}.${signature}` } };
      },
      401,
      'invalid_token',
      /algorithm/,
    ],
    [
      'expired',
      async () => ({
        headers: {
          authorization: `Bearer ${await bearer({ exp: now() - 60, iat: now() - 3600 })}`,
        },
      }),
      401,
      'invalid_token',
      /expired/,
    ],
    [
      'not yet valid',
      async () => ({ headers: { authorization: `Bearer ${await bearer({ nbf: now() + 300 })}` } }),
      401,
      'invalid_token',
      /not valid yet/,
    ],
    [
      'wrong issuer',
      async () => ({
        headers: { authorization: `Bearer ${await bearer({ iss: 'https://evil.test' })}` },
      }),
      401,
      'invalid_token',
      /issuer/,
    ],
    [
      'wrong audience (a token for another resource)',
      async () => ({
        headers: { authorization: `Bearer ${await bearer({ aud: 'https://other.example/mcp' })}` },
      }),
      401,
      'invalid_token',
      /not issued for this resource/,
    ],
    [
      'unknown kid (after a refetch)',
      async () => ({ headers: { authorization: `Bearer ${await bearer({}, rogue)}` } }),
      401,
      'invalid_token',
      /key the issuer does not publish/,
    ],
    [
      'token in the query string',
      async () => ({ query: `?access_token=${await bearer()}` }),
      401,
      undefined,
      /only in the Authorization header/,
    ],
  ];

  it.each(cases)('%s is refused', async (_name, make, status, error, message) => {
    const before = counter.served;
    const fetchesBefore = jwks.fetches();
    const { headers = {}, query = '' } = await make();
    const response = await callSecret(target.handle.url + query, headers);
    expect(response.status).toBe(status);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="http://127.0.0.1:${target.handle.port}/.well-known/oauth-protected-resource/mcp"`,
    );
    if (error) expect(challenge).toContain(`error="${error}"`);
    else expect(challenge).not.toContain('error=');
    const body = JSON.parse(await response.text());
    expect(body.error.message).toMatch(message);
    expect(body).not.toHaveProperty('result');
    expect(counter.served).toBe(before);
    if (_name.startsWith('unknown kid')) expect(jwks.fetches()).toBeGreaterThan(fetchesBefore);
  });

  it('key rotation: a token signed with a key the issuer has just published is accepted after one refetch', async () => {
    const next = await signingKey('k2');
    published = [key.jwk, next.jwk];
    try {
      const before = jwks.fetches();
      const response = await callSecret(target.handle.url, {
        authorization: `Bearer ${await bearer({}, next)}`,
      });
      expect(response.status).toBe(200);
      await response.text();
      expect(jwks.fetches()).toBe(before + 1);
    } finally {
      published = [key.jwk];
    }
  });

  it('unknown kids refetch the key set at most once per cooldown (a flood cannot hammer the issuer)', async () => {
    const limited = await protectedServer((resource) =>
      jwtVerifier({
        issuer: ISSUER,
        jwksUri: jwks.url,
        audience: resource,
        jwksCooldownMs: 60_000,
      }),
    );
    try {
      const claims = { iss: ISSUER, aud: limited.resource, sub: 'mallory' };
      const before = jwks.fetches();
      expect(
        (
          await callSecret(limited.handle.url, {
            authorization: `Bearer ${await sign(key, claims)}`,
          })
        ).status,
      ).toBe(200);
      for (let i = 0; i < 5; i++) {
        const forged = await signingKey(`k-forged-${i}`);
        const response = await callSecret(limited.handle.url, {
          authorization: `Bearer ${await sign(forged, claims)}`,
        });
        expect(response.status).toBe(401);
        await response.text();
      }
      // One fetch for the first token; the unknown kids within the cooldown fetch nothing more.
      expect(jwks.fetches() - before).toBe(1);
    } finally {
      await limited.handle.close();
    }
  });

  it('JWKS endpoint down → 503 with a clear error, and tokens with cached keys are still served', async () => {
    const down = await jwksServer(() => [key.jwk]);
    const downUrl = down.url;
    await down.close();
    const other = await protectedServer((resource) =>
      jwtVerifier({ issuer: ISSUER, jwksUri: downUrl, audience: resource }),
    );
    try {
      const before = counter.served;
      const token = await sign(key, { iss: ISSUER, aud: other.resource, sub: 'alice' });
      const response = await callSecret(other.handle.url, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(await response.text()).error.message).toMatch(
        /signing keys at http:\/\/127\.0\.0\.1:\d+\/jwks could not be fetched/,
      );
      expect(counter.served).toBe(before);
      // The other server, whose keys are cached, keeps serving.
      expect(
        (await callSecret(target.handle.url, { authorization: `Bearer ${await bearer()}` })).status,
      ).toBe(200);
    } finally {
      await other.handle.close();
    }
  });
});
