import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { introspectionVerifier, jwtVerifier } from '@mcp-fw/auth';
import { jwksServer, sign, signingKey, type SigningKey } from './support/issuer.ts';
import { callSecret, counter, protectedServer } from './support/protected.ts';

// Issue #30, row 8: a flood of bad tokens reached the issuer once per token: 1,000 tokens with
// an unknown `kid` while the JWKS endpoint failed made 1,000 key-set fetches (1 when healthy);
// 1,000 identical bogus tokens made 1,000 introspection calls (inactive answers were never
// cached); and the endpoint's rate limit ran after authentication, so it could not help.

const ISSUER = 'https://issuer.test';
const FLOOD = 1000;

/** Sends `tokens` through `url`, 50 at a time; answers the statuses seen. */
async function flood(url: string, tokens: readonly string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = await Promise.all(
      tokens.slice(i, i + 50).map(async (token) => {
        const response = await callSecret(url, { authorization: `Bearer ${token}` });
        await response.text();
        return response.status;
      }),
    );
    for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return statuses;
}

let key: SigningKey;
let stranger: SigningKey;
beforeAll(async () => {
  key = await signingKey('k1');
  stranger = await signingKey('k-unknown');
});

describe('1,000 tokens with an unknown kid while the JWKS endpoint fails fetch the key set as seldom as when it is healthy', () => {
  it.each([
    ['healthy', 200, 401],
    ['failing (500)', 500, 503],
  ])(
    'JWKS endpoint %s, its cooldown over: one fetch for the whole flood',
    async (_name, status, answered) => {
      let answer = 200;
      const jwks = await jwksServer(
        () => [key.jwk],
        () => answer,
      );
      const target = await protectedServer((resource) =>
        jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource }),
      );
      try {
        const claims = { iss: ISSUER, aud: target.resource, sub: 'mallory' };
        // One good call: the keys are fetched and cached.
        expect((await flood(target.handle.url, [await sign(key, claims)])).get(200)).toBe(1);
        expect(jwks.fetches()).toBe(1);
        const token = await sign(stranger, claims);
        answer = status;
        // 31 s later (the clock only: timers and sockets run as ever), the 30 s cooldown is over.
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + 31_000);
        const statuses = await flood(target.handle.url, Array(FLOOD).fill(token));
        // Healthy: the refetch shows the kid is unknown (401). Failing: the refetch failed, and
        // every other token of the cooldown gets the same 503 without a fetch of its own.
        expect(statuses).toEqual(new Map([[answered, FLOOD]]));
        expect(jwks.fetches()).toBe(2);
      } finally {
        vi.useRealTimers();
        await target.handle.close();
        await jwks.close();
      }
    },
  );

  it('the endpoint failing from the start: one fetch, then 503 with Retry-After until the cooldown ends', async () => {
    const jwks = await jwksServer(
      () => [key.jwk],
      () => 500,
    );
    const target = await protectedServer((resource) =>
      jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource }),
    );
    try {
      const before = counter.served;
      const token = await sign(key, { iss: ISSUER, aud: target.resource, sub: 'alice' });
      const statuses = await flood(target.handle.url, Array(FLOOD).fill(token));
      expect(statuses).toEqual(new Map([[503, FLOOD]]));
      expect(jwks.fetches()).toBe(1);
      expect(counter.served).toBe(before);
      const response = await callSecret(target.handle.url, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(await response.text()).error.message).toMatch(
        /signing keys at http:\/\/127\.0\.0\.1:\d+\/jwks could not be fetched/,
      );
    } finally {
      await target.handle.close();
      await jwks.close();
    }
  });

  it('after the cooldown a failed fetch is tried again, and keys published meanwhile are used', async () => {
    let answer = 500;
    const jwks = await jwksServer(
      () => [key.jwk],
      () => answer,
    );
    const target = await protectedServer((resource) =>
      jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource, jwksCooldownMs: 300 }),
    );
    try {
      const token = await sign(key, { iss: ISSUER, aud: target.resource, sub: 'alice' });
      expect((await flood(target.handle.url, [token, token])).get(503)).toBe(2);
      expect(jwks.fetches()).toBe(1);
      answer = 200;
      await new Promise((r) => setTimeout(r, 350));
      expect((await flood(target.handle.url, [token, token])).get(200)).toBe(2);
      expect(jwks.fetches()).toBe(2);
    } finally {
      await target.handle.close();
      await jwks.close();
    }
  });
});

/** A real RFC 7662 endpoint on 127.0.0.1: every token is inactive; counts its calls. */
let introspection: Server;
let introspectionUrl: string;
let introspections = 0;
async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}
beforeAll(async () => {
  introspection = createServer(async (req, res) => {
    introspections++;
    await drain(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"active":false}');
  });
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
  introspectionUrl = `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => introspection.close(() => resolve()));
});
const introspecting = (resource: string, inactiveCacheTtlMs?: number) =>
  introspectionVerifier({
    endpoint: introspectionUrl,
    clientId: 'rs',
    clientSecret: 's3cret',
    audience: resource,
    inactiveCacheTtlMs,
  });

describe('1,000 identical bogus tokens with introspection ask the authorization server once', () => {
  it('the inactive answer is cached briefly: one introspection call, 1,000 × 401', async () => {
    // A TTL longer than the flood takes on a busy machine; the default (10 s) is checked below.
    const target = await protectedServer((resource) => introspecting(resource, 60_000));
    try {
      const before = introspections;
      const statuses = await flood(target.handle.url, Array(FLOOD).fill('bogus-token'));
      expect(statuses).toEqual(new Map([[401, FLOOD]]));
      expect(introspections - before).toBe(1);
    } finally {
      await target.handle.close();
    }
  });

  it('by default too: the same bogus token twice in a row asks once', async () => {
    const target = await protectedServer((resource) => introspecting(resource));
    try {
      const before = introspections;
      expect(await flood(target.handle.url, ['bogus-twice', 'bogus-twice'])).toEqual(
        new Map([[401, 2]]),
      );
      expect(introspections - before).toBe(1);
    } finally {
      await target.handle.close();
    }
  });
});

describe('the endpoint rate limit (per address) runs before authentication, so it protects the issuer', () => {
  it('1,000 distinct bogus tokens from one address: the issuer is asked only up to the limit, the rest get 429', async () => {
    const target = await protectedServer(
      introspecting,
      {},
      { rateLimit: { max: 20, perMs: 60_000 } },
    );
    try {
      const before = introspections;
      const tokens = Array.from({ length: FLOOD }, (_, i) => `bogus-${i}`);
      const statuses = await flood(target.handle.url, tokens);
      expect(statuses).toEqual(
        new Map([
          [401, 20],
          [429, FLOOD - 20],
        ]),
      );
      expect(introspections - before).toBe(20);
    } finally {
      await target.handle.close();
    }
  });
});
