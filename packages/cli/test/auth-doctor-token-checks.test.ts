import { generateKeyPairSync } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import {
  introspectionVerifier,
  jwtVerifier,
  oauthResource,
  type TokenVerifier,
} from '@mcp-fw/auth';
import { runCli } from './support/cli-process.ts';

const cwd = fileURLToPath(new URL('.', import.meta.url));
const PUBLIC_JWK = {
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
  kid: 'k1',
  alg: 'ES256',
  use: 'sig',
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/**
 * A real authorization server's discovery side on 127.0.0.1: metadata naming `/jwks` (a key
 * set with one key) and `/introspect` (answers 401 without client credentials), each of which
 * `broken` can turn into a 404, and a token endpoint that refuses every grant.
 */
async function authorizationServer(broken: { jwks?: boolean; introspection?: boolean } = {}) {
  const server = createHttpServer((req, res) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (value: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/.well-known/oauth-authorization-server')
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        introspection_endpoint: `${issuer}/introspect`,
        code_challenge_methods_supported: ['S256'],
      });
    if (req.url === '/jwks' && !broken.jwks) return json({ keys: [PUBLIC_JWK] });
    if (req.url === '/token')
      return res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"invalid_grant"}');
    if (req.url === '/introspect' && !broken.introspection)
      return res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"invalid_client"}');
    res.writeHead(404).end('Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A protected server at its canonical URL, checking tokens with `verifier`. */
async function protectedServer(issuer: string, verifier: (resource: string) => TokenVerifier) {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const resource = `http://127.0.0.1:${port}/mcp`;
  class Notes {
    @Tool('Lists notes')
    list() {
      return [];
    }
  }
  const handle = await serveHttp(
    createServer({
      name: 'notes',
      version: '1.0.0',
      providers: [Notes],
      logger: { error() {}, warn() {} },
    }),
    {
      port,
      ...oauthResource({ resource, authorizationServers: [issuer], verifier: verifier(resource) }),
    },
  );
  closers.push(() => handle.close());
  return resource;
}

const lines = (stdout: string, mark: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith(`${mark} `))
    .map((line) => line.slice(2));

describe('auth doctor with a wrong JWKS URL fails, naming the endpoint', () => {
  it('auth doctor with a wrong JWKS URL: the server answers 503 to a token signed by no one, so the doctor fails and says why', async () => {
    const issuer = await authorizationServer();
    const wrong = `${issuer}/.well-known/jwks.json`;
    const resource = await protectedServer(issuer, (audience) =>
      jwtVerifier({ issuer, jwksUri: wrong, audience }),
    );
    const run = await runCli(['auth', 'doctor', resource], cwd);
    expect(run.stdout).not.toContain('All checks passed');
    expect(lines(run.stdout, '✓')).toEqual(
      expect.arrayContaining([
        `signing keys (${issuer}): ${issuer}/jwks: 1 key`,
        `introspection endpoint (${issuer}): ${issuer}/introspect: answers (HTTP 401 without credentials)`,
        'a request without a token gets 401: HTTP 401',
      ]),
    );
    expect(lines(run.stdout, '✗')).toEqual([
      `the server can check tokens (one signed by no one gets 401): HTTP 503: Service Unavailable: the issuer's signing keys at ${wrong} could not be fetched (HTTP 404); try again later`,
    ]);
    expect(run.stdout).toContain(
      "fix: The server cannot reach the endpoint its verifier checks tokens with, so every real request gets 503 too: correct its URL (jwtVerifier's jwksUri, introspectionVerifier's endpoint)",
    );
    expect(run.stdout).toMatch(/1 check failed\.\n$/);
    expect(run.code).toBe(1);
  });

  it('auth doctor with a wrong JWKS URL: a key set the issuer names but does not serve fails on its own', async () => {
    const issuer = await authorizationServer({ jwks: true });
    const resource = await protectedServer(issuer, (audience) =>
      jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience }),
    );
    const run = await runCli(['auth', 'doctor', resource], cwd);
    expect(lines(run.stdout, '✗')).toEqual([
      `signing keys (${issuer}): ${issuer}/jwks: HTTP 404`,
      expect.stringMatching(
        /^the server can check tokens \(one signed by no one gets 401\): HTTP 503: Service Unavailable: the issuer's signing keys at http:\/\/127\.0\.0\.1:\d+\/jwks could not be fetched/,
      ),
    ]);
    expect(run.stdout).toContain(`fix: Make ${issuer} serve its signing keys at ${issuer}/jwks`);
    expect(run.stdout).toMatch(/2 checks failed\.\n$/);
    expect(run.code).toBe(1);
  });

  it('auth doctor with a failing introspection endpoint fails on it and on the server’s 503', async () => {
    const issuer = await authorizationServer({ introspection: true });
    const resource = await protectedServer(issuer, (audience) =>
      introspectionVerifier({
        endpoint: `${issuer}/introspect`,
        clientId: 'notes',
        clientSecret: 'secret',
        audience,
      }),
    );
    const run = await runCli(['auth', 'doctor', resource], cwd);
    expect(lines(run.stdout, '✗')).toEqual([
      `introspection endpoint (${issuer}): ${issuer}/introspect: HTTP 404`,
      `the server can check tokens (one signed by no one gets 401): HTTP 503: Service Unavailable: the token introspection endpoint ${issuer}/introspect failed (HTTP 404); try again later`,
    ]);
    expect(run.code).toBe(1);
  });

  it('passes when the server checks tokens with the keys the issuer serves', async () => {
    const issuer = await authorizationServer();
    const resource = await protectedServer(issuer, (audience) =>
      jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience }),
    );
    const run = await runCli(['auth', 'doctor', resource], cwd);
    expect(lines(run.stdout, '✗')).toEqual([]);
    expect(lines(run.stdout, '✓')).toContain(
      'the server can check tokens (one signed by no one gets 401): HTTP 401',
    );
    expect(run.stdout).toMatch(/All checks passed\.\n$/);
    expect(run.code).toBe(0);
  });
});
