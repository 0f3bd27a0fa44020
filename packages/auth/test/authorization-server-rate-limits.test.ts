import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '@mcp-fw/core';
import type { HttpRequestView } from '@mcp-fw/core/http';
import { authorizationServer, upstreams } from '@mcp-fw/auth/server';
import {
  authorizationUrl,
  httpsHost,
  ownAuthorizationServer,
  pkce,
  selfSigned,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// Rate limits of our authorization server's endpoints (issue #36): per client address (the one
// trustedProxies vouch for: each test speaks from its own X-Forwarded-For address through the
// real HTTP server), per client_id, registrations, and Client ID Metadata Document fetches.
// Over a budget: 429, Retry-After, and an OAuth error body (a page at the browser endpoints).

const SECRET = 'reporting-secret-0123456789abcdef0123456789';
let env: OwnAuthorizationServer;
let documents: Awaited<ReturnType<typeof httpsHost>>;
let documentFetches = 0;
const counters = new MemoryRateLimitStore(50);

beforeAll(async () => {
  const tls = selfSigned();
  documents = await httpsHost(tls, (path, res) => {
    documentFetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: `${documents.origin}${path}`,
        redirect_uris: ['http://127.0.0.1:9/callback'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  env = await ownAuthorizationServer(
    {
      clients: [
        {
          clientId: 'reporting',
          clientSecret: SECRET,
          grantTypes: ['client_credentials'],
        },
      ],
      clientMetadataDocuments: { allowPrivateAddresses: true, ca: tls.cert },
      rateLimits: {
        perAddress: { max: 3, perMs: 60_000 },
        registrations: { max: 2, perMs: 60_000 },
        perClient: { max: 4, perMs: 60_000 },
        metadataDocumentFetches: { max: 2, perMs: 60_000 },
        store: counters,
      },
    },
    { serve: { trustedProxies: ['127.0.0.1'] } },
  );
});
afterAll(async () => {
  await env?.close();
  await documents?.close();
});

let nextAddress = 1;
/** A fresh client address (as the trusted proxy reports it). */
const address = () => `203.0.113.${nextAddress++}`;

function token(from: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${env.origin}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': from,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function expectTooMany(response: Response, json: boolean): Promise<string> {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  if (json) {
    const body = (await response.json()) as Record<string, string>;
    expect(body.error).toBe('temporarily_unavailable');
    expect(body.error_description).toMatch(/retry after \d+ s/);
    return body.error_description;
  }
  expect(response.headers.get('content-type')).toContain('text/html');
  const html = await response.text();
  expect(html).toMatch(/retry after \d+ s/);
  return html;
}

describe('rate limits of the authorization server', () => {
  it('an address over its /token budget gets 429 with Retry-After and an OAuth error body; another address is still served', async () => {
    const a = address();
    for (let i = 0; i < 3; i++)
      expect(
        (await token(a, { grant_type: 'client_credentials', client_id: `x${i}` })).status,
      ).toBe(401);
    const message = await expectTooMany(
      await token(a, { grant_type: 'client_credentials', client_id: 'x9' }),
      true,
    );
    expect(message).toContain(`the address ${a} sent more than 3 requests to /oauth/token`);
    const b = address();
    const served = await token(b, {
      grant_type: 'client_credentials',
      client_id: 'reporting',
      client_secret: SECRET,
    });
    expect(served.status).toBe(200);
  });

  it('one client_id over its budget at /token gets 429 from any address, and its secret is not even checked', async () => {
    const fields = { grant_type: 'client_credentials', client_id: 'guessme', client_secret: 'x' };
    for (let i = 0; i < 4; i++) expect((await token(address(), fields)).status).toBe(401);
    const message = await expectTooMany(await token(address(), fields), true);
    expect(message).toContain('client guessme sent more than 4 requests');
  });

  it('registrations over the per-address budget get 429 and store nothing', async () => {
    const a = address();
    const register = () =>
      fetch(`${env.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': a },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'] }),
      });
    expect((await register()).status).toBe(201);
    expect((await register()).status).toBe(201);
    await expectTooMany(await register(), true);
  });

  it('/authorize over its budget answers a 429 page with Retry-After, not a redirect', async () => {
    const a = address();
    const url = authorizationUrl(env.origin, {
      client_id: 'unknown-client',
      code_challenge: pkce().challenge,
    });
    const get = () => fetch(url, { redirect: 'manual', headers: { 'x-forwarded-for': a } });
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(400);
    const answer = await get();
    expect(answer.headers.get('location')).toBeNull();
    await expectTooMany(answer, false);
  });

  it('consent POSTs over the budget get a 429 page', async () => {
    const a = address();
    const post = () =>
      fetch(`${env.origin}/oauth/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': a },
        body: 'transaction=nope&csrf=nope&decision=allow',
      });
    for (let i = 0; i < 3; i++) expect((await post()).status).toBe(400);
    await expectTooMany(await post(), false);
  });

  it('Client ID Metadata Document fetches over the per-address budget get 429 before any fetch', async () => {
    const a = address();
    const before = documentFetches;
    const authorize = (name: string) =>
      fetch(
        authorizationUrl(env.origin, {
          client_id: `${documents.origin}/clients/${name}.json`,
          redirect_uri: 'http://127.0.0.1:9/callback',
          code_challenge: pkce().challenge,
        }),
        { redirect: 'manual', headers: { 'x-forwarded-for': a } },
      );
    expect((await authorize('one')).status).toBe(302);
    expect((await authorize('two')).status).toBe(302);
    const html = await expectTooMany(await authorize('three'), false);
    expect(html).toContain('client metadata document fetch');
    expect(documentFetches - before).toBe(2);
  });

  it('the counters are bounded: a flood of addresses keeps at most the store’s maxKeys', async () => {
    for (let i = 0; i < 120; i++)
      await token(`198.51.100.${i}`, { grant_type: 'client_credentials', client_id: 'flood' });
    expect(counters.size).toBeLessThanOrEqual(50);
  });

  it('rateLimits: false turns them off, and a budget that cannot work fails at startup', async () => {
    const base = {
      resource: 'http://127.0.0.1:1/mcp',
      scopes: ['notes:read'],
      upstream: upstreams.github({ clientId: 'x', clientSecret: 'y' }),
    };
    const off = await authorizationServer({ ...base, rateLimits: false });
    // In process, as the HTTP endpoint hands requests to routes: 100 from one address.
    const request = (): HttpRequestView => {
      const url = new URL('http://127.0.0.1:1/oauth/token');
      return {
        method: 'POST',
        url,
        path: url.pathname,
        remoteAddress: '192.0.2.1',
        header: () => undefined,
        text: async () => 'grant_type=client_credentials&client_id=nobody',
        signal: new AbortController().signal,
        onAbort: () => {},
      };
    };
    for (let i = 0; i < 100; i++) expect((await off.routes(request()))?.status).toBe(401);
    const on = await authorizationServer(base);
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push((await on.routes(request()))?.status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    await expect(
      authorizationServer({ ...base, rateLimits: { perAddress: { max: 0, perMs: 1000 } } }),
    ).rejects.toThrow(/rateLimits address: max must be a positive integer/);
  });
});
