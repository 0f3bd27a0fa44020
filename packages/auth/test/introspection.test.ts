import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectionVerifier } from '@mcp-fw/auth';
import { callSecret, counter, protectedServer } from './support/protected.ts';

/** A real RFC 7662 endpoint on 127.0.0.1 that knows a few tokens and checks our credentials. */
let answers: Record<string, Record<string, unknown>> = {};
let calls = 0;
let introspection: Server;
let introspectionUrl: string;

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

let target: Awaited<ReturnType<typeof protectedServer>>;
beforeAll(async () => {
  introspection = createServer(async (req, res) => {
    calls++;
    const form = new URLSearchParams(await body(req));
    if (req.headers.authorization !== `Basic ${Buffer.from('rs:s3cret').toString('base64')}`)
      return res.writeHead(401).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(answers[form.get('token') ?? ''] ?? { active: false }));
  });
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
  introspectionUrl = `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
  target = await protectedServer((resource) =>
    introspectionVerifier({
      endpoint: introspectionUrl,
      clientId: 'rs',
      clientSecret: 's3cret',
      audience: resource,
      cacheMaxEntries: 2,
    }),
  );
  const exp = Math.floor(Date.now() / 1000) + 600;
  answers = {
    good: {
      active: true,
      sub: 'bob',
      client_id: 'app',
      scope: 'notes:read notes:write',
      exp,
      aud: target.resource,
    },
    revoked: { active: false },
    elsewhere: { active: true, sub: 'bob', exp, aud: 'https://other.example/mcp' },
  };
});
afterAll(async () => {
  await target.handle.close();
  await new Promise<void>((resolve) => introspection.close(() => resolve()));
});

describe('opaque tokens by RFC 7662 introspection', () => {
  it('serves an active token, and reuses the answer from the cache', async () => {
    const before = calls;
    for (let i = 0; i < 2; i++) {
      const response = await callSecret(target.handle.url, { authorization: 'Bearer good' });
      expect(response.status).toBe(200);
      const auth = JSON.parse(JSON.parse(await response.text()).result.content[0].text);
      expect(auth).toMatchObject({
        subject: 'bob',
        clientId: 'app',
        scopes: ['notes:read', 'notes:write'],
      });
    }
    expect(calls).toBe(before + 1);
  });

  it.each([
    ['introspection says inactive', 'revoked', /not active/],
    ['unknown to the authorization server', 'nobody-knows-me', /not active/],
    ['active but for another resource', 'elsewhere', /not issued for this resource/],
  ])('%s → 401 invalid_token, nothing served', async (_name, token, message) => {
    const before = counter.served;
    const response = await callSecret(target.handle.url, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/,
    );
    expect(JSON.parse(await response.text()).error.message).toMatch(message);
    expect(counter.served).toBe(before);
  });

  it('introspection endpoint down → 503, not 401', async () => {
    const down = await protectedServer((resource) =>
      introspectionVerifier({
        endpoint: 'http://127.0.0.1:9/introspect',
        clientId: 'rs',
        clientSecret: 'x',
        audience: resource,
      }),
    );
    try {
      const response = await callSecret(down.handle.url, { authorization: 'Bearer good' });
      expect(response.status).toBe(503);
      expect(JSON.parse(await response.text()).error.message).toMatch(
        /introspection endpoint http:\/\/127\.0\.0\.1:9\/introspect failed/,
      );
    } finally {
      await down.handle.close();
    }
  });
});
