import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import {
  introspectionVerifier,
  jwtVerifier,
  oauthResource,
  type TokenVerifier,
} from '@mcp-fw/auth';
import { onFreePort } from '../../../test-support/ports.ts';
import { callSecret, freePort } from './support/protected.ts';
import { jwksServer, sign, signingKey } from './support/issuer.ts';

const ISSUER = 'https://issuer.test';

class Secrets {
  @Tool('Tells a secret')
  secret() {
    return 'the secret';
  }
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** An HTTP server that has nothing anywhere (404), as an issuer has at a mistyped path. */
async function notFoundServer(): Promise<string> {
  const server = createHttpServer((_req, res) => res.writeHead(404).end('Not Found'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A protected server whose `logger` lines are collected. */
async function loggedServer(verifier: (resource: string) => TokenVerifier) {
  const logged: string[] = [];
  // Its canonical URL names its port, so the port is chosen before it listens.
  const { handle, resource } = await onFreePort(async (port) => {
    const resource = `http://127.0.0.1:${port}/mcp`;
    const server = createServer({
      name: 'secrets',
      version: '1.0.0',
      providers: [Secrets],
      logger: { error: (message) => logged.push(message), warn: (message) => logged.push(message) },
    });
    const handle: HttpServerHandle = await serveHttp(server, {
      port,
      ...oauthResource({
        resource,
        authorizationServers: [ISSUER],
        verifier: verifier(resource),
      }),
    });
    return { handle, resource };
  });
  closers.push(() => handle.close());
  return { handle, resource, logged };
}

describe('auth doctor with a wrong JWKS URL: the server logs why it answered 503', () => {
  it('a wrong jwksUri: every call gets 503 and the logger says which URL failed and what to check, once per burst', async () => {
    const key = await signingKey('k1');
    // The issuer publishes its keys at /jwks; the server was told /keys, a 404.
    const issuer = await notFoundServer();
    const wrong = `${issuer}/keys`;
    const { handle, resource, logged } = await loggedServer((audience) =>
      jwtVerifier({ issuer: ISSUER, jwksUri: wrong, audience, jwksCooldownMs: 0 }),
    );
    const token = await sign(key, { iss: ISSUER, aud: resource, sub: 'alice' });
    for (let i = 0; i < 3; i++) {
      const response = await callSecret(handle.url, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(503);
      expect(JSON.parse(await response.text()).error.message).toBe(
        `Service Unavailable: the issuer's signing keys at ${wrong} could not be fetched (HTTP 404); try again later`,
      );
    }
    expect(logged).toEqual([
      `answered 503: a bearer token could not be checked, because the issuer's signing keys at ${wrong} could not be fetched (HTTP 404). ` +
        "Every authenticated request fails until it can: check the verifier's URL (jwtVerifier's jwksUri, introspectionVerifier's endpoint) " +
        `against the issuer's metadata, and that this server can reach it (mcp-fw auth doctor ${resource} tests it).`,
    ]);
  });

  it('an unreachable introspection endpoint: the logger names it', async () => {
    const gone = `http://127.0.0.1:${await freePort()}/introspect`;
    const { handle, logged } = await loggedServer((audience) =>
      introspectionVerifier({ endpoint: gone, clientId: 'rs', clientSecret: 's', audience }),
    );
    const response = await callSecret(handle.url, { authorization: 'Bearer opaque-token' });
    expect(response.status).toBe(503);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      new RegExp(
        `^answered 503: a bearer token could not be checked, because the token introspection endpoint ${gone.replace(/[.]/g, '\\.')} failed \\(fetch failed\\)\\. `,
      ),
    );
  });

  it('a 401 for a bad token is the client’s business: nothing is logged', async () => {
    const key = await signingKey('k1');
    const jwks = await jwksServer(() => [key.jwk]);
    closers.push(() => jwks.close());
    const { handle, logged } = await loggedServer((audience) =>
      jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience }),
    );
    const response = await callSecret(handle.url, { authorization: 'Bearer not.a.jwt' });
    expect(response.status).toBe(401);
    expect(logged).toEqual([]);
  });
});
