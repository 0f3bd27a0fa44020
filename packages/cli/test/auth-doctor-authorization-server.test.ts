import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, sign as cryptoSign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import { devUpstreamProvider } from '@mcp-fw/auth/dev';
import {
  authorizationServer,
  oidcUpstream,
  type AuthorizationServerOptions,
} from '@mcp-fw/auth/server';
import { Browser } from '../../auth/test/support/own-authorization-server.ts';
import { freePort, onFreePort } from '../../../test-support/ports.ts';
import { authDoctor, type DoctorCheck } from '../src/commands/auth-doctor.ts';
import { cliEnv, listeningUrl, runCli } from './support/cli-process.ts';

// `mcp-fw auth doctor` on an authorization server: ours (authorizationServer() of
// @mcp-fw/auth/server, with an upstream IdP), run for real by examples/secure-notes
// --auth-server, then deliberately broken ones, each finding a test named after its check.

const SECURE_NOTES = fileURLToPath(
  new URL('../../../examples/secure-notes/dist/main.js', import.meta.url),
);
const cwd = fileURLToPath(new URL('.', import.meta.url));

/** The check whose name starts with `name`; fails the test when the doctor did not run it. */
function check(checks: readonly DoctorCheck[], name: string): DoctorCheck {
  const found = checks.find((c) => c.name.startsWith(name));
  if (!found) throw new Error(`no check "${name}" in: ${checks.map((c) => c.name).join(' | ')}`);
  return found;
}

/** A failure (not a warning) with its fix. */
function expectFailure(c: DoctorCheck, fix: string | RegExp) {
  expect(c.ok, c.detail).toBe(false);
  expect(c.warning, c.detail).toBeFalsy();
  if (typeof fix === 'string') expect(c.fix).toContain(fix);
  else expect(c.fix).toMatch(fix);
}

class Open {
  @Tool('Says hi')
  hi() {
    return 'hi';
  }
}

describe('mcp-fw auth doctor on our authorization server (examples/secure-notes --auth-server)', () => {
  let notes: ChildProcess;
  let url: string;
  beforeAll(async () => {
    // Its canonical URL names its port (--port 0 is refused): a port another test file took
    // meanwhile is tried again on a fresh one.
    url = await onFreePort(async (port) => {
      const child = spawn(
        process.execPath,
        [SECURE_NOTES, '--http', '--port', String(port), '--auth-server'],
        { env: cliEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
      );
      notes = child;
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return listeningUrl(() => stderr, child);
    });
  });
  afterAll(() => {
    notes?.kill('SIGTERM');
  });

  let token: string;
  beforeAll(async () => {
    token = await signIn(url);
  });

  it('passes every authorization server and upstream check and, with --token, the key set serves the key a real token is signed with', async () => {
    const run = await runCli(['auth', 'doctor', url, '--token', token], cwd);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('✗');
    for (const name of [
      'authorization server metadata',
      'signing keys are public',
      'PKCE S256 only',
      'client ID metadata documents',
      'the scopes the resource names are granted',
      'dynamic registration',
      'the token endpoint refuses an invalid grant precisely',
      'PKCE enforced at the authorization endpoint',
      'iss in authorization responses',
      'a sign-in request is accepted',
      'upstream discovery reachable',
      'upstream accepts the callback',
    ])
      expect(run.stdout).toMatch(new RegExp(`^✓ ${name}`, 'm'));
    expect(run.stdout).toContain('HTTP 400, invalid_grant');
    expect(run.stdout).toContain('with redirect URI http://');
    const origin = new URL(url).origin;
    expect(run.stdout).toContain(`✓ the token's issuer is listed: iss is ${origin}`);
    expect(run.stdout).toMatch(
      /^✓ the key set serves the key the token is signed with \(.*\): .* serves .*, and the ES256 signature verifies$/m,
    );
    expect(run.stdout).toMatch(/^✓ the token is for this resource, and current: aud "http/m);
    expect(run.stdout).toMatch(/All checks passed\.\n$/);
    expect(run.code).toBe(0);
  });

  describe('with a token the server did not sign', () => {
    it('the key set serves the key the token is signed with: a token signed with another key under its kid fails', async () => {
      const [header, payload] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = sign(header, { ...claims, aud: 'https://elsewhere.example/mcp' });
      const checks = await authDoctor(url, fetch, { token: forged });
      const c = check(checks, 'the key set serves the key the token is signed with');
      expectFailure(c, 'every instance must sign with the same key');
      expect(c.detail).toContain('the signature does not verify with the served key');
      expectFailure(
        check(checks, 'the token is for this resource, and current'),
        `the client must send resource=${url}`,
      );
    });

    it('the key set serves the key the token is signed with: a kid the key set lacks fails, naming the kids it serves', async () => {
      const [, payload] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'rotated-away' })).toString(
        'base64url',
      );
      const checks = await authDoctor(url, fetch, { token: sign(header, claims) });
      const c = check(checks, 'the key set serves the key the token is signed with');
      expectFailure(c, 'publish it before signing with it');
      expect(c.detail).toMatch(/serves .*, not rotated-away$/);
    });
  });
});

/** A JWT with `header` (base64url) and `claims`, ES256-signed with a key nobody publishes. */
function sign(header: string, claims: object): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = cryptoSign('sha256', Buffer.from(input), {
    key: privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * An access token from the server's own authorization server, the way a client gets one:
 * registration, PKCE S256, the upstream IdP's login page and our consent page, the code exchange.
 */
async function signIn(mcpUrl: string): Promise<string> {
  const origin = new URL(mcpUrl).origin;
  const redirect = 'http://127.0.0.1:9/callback';
  const registered = (await (
    await fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${origin}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: mcpUrl,
    scope: 'notes:read',
  }))
    authorize.searchParams.set(k, v);
  const back = await new Browser().go(authorize, redirect);
  const tokens = (await (
    await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.get('code')!,
        redirect_uri: redirect,
        code_verifier: verifier,
        client_id: registered.client_id,
      }),
    })
  ).json()) as { access_token: string };
  return tokens.access_token;
}

/**
 * An authorization server with everything `broken` names wrong, served with its MCP server
 * on one origin (as ours is): the doctor holds it to the full standard.
 */
function brokenServer(broken: { issuerPath?: string } = {}) {
  // Its metadata names its port: a port taken meanwhile is tried again on a fresh one.
  return onFreePort((port) => brokenServerOn(port, broken));
}

async function brokenServerOn(port: number, broken: { issuerPath?: string }) {
  const origin = `http://127.0.0.1:${port}`;
  const issuer = `${origin}${broken.issuerPath ?? ''}`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const json = (status: number, body: unknown): HttpReply => ({
    status,
    headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    body: JSON.stringify(body),
  });
  const metadata = {
    issuer,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    jwks_uri: `${origin}/oauth/jwks`,
    scopes_supported: ['notes:read'],
    code_challenge_methods_supported: ['S256', 'plain'],
    // Advertised, but the error redirects below carry no iss.
    authorization_response_iss_parameter_supported: true,
  };
  const routes = async (req: HttpRequestView): Promise<HttpReply | undefined> => {
    switch (req.path) {
      case '/.well-known/oauth-protected-resource':
      case '/.well-known/oauth-protected-resource/mcp':
        return json(200, {
          resource: `${origin}/mcp`,
          authorization_servers: [issuer],
          scopes_supported: ['notes:read', 'notes:write'],
        });
      // For an issuer with a path, served where RFC 8414 does not put it.
      case broken.issuerPath
        ? `${broken.issuerPath}/.well-known/oauth-authorization-server`
        : '/.well-known/oauth-authorization-server':
        return json(200, metadata);
      case '/oauth/jwks':
        // The whole key pair, private part included.
        return json(200, {
          keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256' }],
        });
      case '/oauth/register':
        await req.text(16_384);
        return json(500, { error: 'server_error', error_description: 'the database is down' });
      case '/oauth/token':
        return {
          status: 500,
          headers: { 'content-type': 'text/html' },
          body: '<h1>Internal Server Error</h1>',
        };
      default:
        return undefined;
    }
  };
  const handle: HttpServerHandle = await serveHttp(
    createServer({ name: 'broken', version: '1.0.0', providers: [Open] }),
    {
      port,
      routes,
      authenticate: () => ({
        reject: {
          status: 401,
          message: 'no token',
          wwwAuthenticate: `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      }),
    },
  );
  return { url: `${origin}/mcp`, issuer, close: () => handle.close() };
}

describe('mcp-fw auth doctor on a broken authorization server', () => {
  let checks: DoctorCheck[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = await brokenServer();
    close = server.close;
    checks = await authDoctor(server.url);
  });
  afterAll(() => close?.());

  it('PKCE S256 only: "plain" offered beside S256 fails', () => {
    expectFailure(check(checks, 'PKCE S256 only'), 'Offer only S256');
  });
  it('signing keys are public: a key set carrying the private key fails', () => {
    const c = check(checks, 'signing keys are public');
    expectFailure(c, 'anyone can now sign tokens');
    expect(c.detail).toContain('private or secret parts');
  });
  it('client ID metadata documents: not advertised fails', () => {
    expectFailure(
      check(checks, 'client ID metadata documents'),
      'client_id_metadata_document_supported: true',
    );
  });
  it('the scopes the resource names are granted: a scope the authorization server lacks fails', () => {
    const c = check(checks, 'the scopes the resource names are granted');
    expectFailure(c, 'A client asking for notes:write gets invalid_scope');
  });
  it('dynamic registration: an advertised endpoint that cannot register fails', () => {
    const c = check(checks, 'dynamic registration');
    expectFailure(c, 'stop advertising registration_endpoint');
    expect(c.detail).toContain('HTTP 500: server_error (the database is down)');
  });
  it('the token endpoint refuses an invalid grant precisely: a 500 HTML page fails', () => {
    const c = check(checks, 'the token endpoint refuses an invalid grant precisely');
    expectFailure(c, '{"error":"invalid_grant"');
    expect(c.detail).toBe('HTTP 500, not an OAuth error (text/html)');
  });
});

describe('mcp-fw auth doctor on a broken authorization server that registers clients', () => {
  // Registration works here; the authorization endpoint accepts PKCE plain and no PKCE, and
  // its error redirects carry no iss.
  let checks: DoctorCheck[];
  let handle: HttpServerHandle;
  beforeAll(async () => {
    // Port 0: the routes read the origin once the server listens.
    let origin = '';
    const json = (status: number, body: unknown): HttpReply => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    handle = await serveHttp(
      createServer({ name: 'broken', version: '1.0.0', providers: [Open] }),
      {
        port: 0,
        routes: async (req) => {
          if (req.path.startsWith('/.well-known/oauth-protected-resource'))
            return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
          if (req.path === '/.well-known/oauth-authorization-server')
            return json(200, {
              issuer: origin,
              authorization_endpoint: `${origin}/oauth/authorize`,
              token_endpoint: `${origin}/oauth/token`,
              registration_endpoint: `${origin}/oauth/register`,
              code_challenge_methods_supported: ['S256'],
              client_id_metadata_document_supported: true,
              authorization_response_iss_parameter_supported: true,
            });
          if (req.path === '/oauth/register') return json(201, { client_id: 'c1' });
          if (req.path === '/oauth/token')
            return json(400, { error: 'invalid_request', error_description: 'bad' });
          if (req.path === '/oauth/authorize') {
            const q = req.url.searchParams;
            // S256 or not, anything goes on to a login page; only a request for an unknown scope errs, without iss.
            if (q.get('code_challenge_method') === 'S256') {
              const back = new URL(q.get('redirect_uri')!);
              back.searchParams.set('error', 'access_denied');
              return { status: 302, headers: { location: back.href } };
            }
            return {
              status: 200,
              headers: { 'content-type': 'text/html' },
              body: '<form>login</form>',
            };
          }
          return undefined;
        },
        authenticate: () => ({ reject: { status: 401, message: 'no' } }),
      },
    );
    origin = new URL(handle.url).origin;
    checks = await authDoctor(handle.url);
  });
  afterAll(() => handle?.close());

  it('PKCE enforced at the authorization endpoint: accepting plain and no PKCE fails', () => {
    const c = check(checks, 'PKCE enforced at the authorization endpoint');
    expectFailure(c, 'Refuse an authorization request without code_challenge_method=S256');
    expect(c.detail).toBe('a sign-in with PKCE plain and with no PKCE at all went on to sign in');
  });
  it('the token endpoint refuses an invalid grant precisely: invalid_request for an unknown code fails', () => {
    const c = check(checks, 'the token endpoint refuses an invalid grant precisely');
    expectFailure(c, 'invalid_grant');
    expect(c.detail).toBe('HTTP 400, invalid_request (bad)');
  });
  it('a sign-in request is accepted: a well-formed request sent back with an error fails', () => {
    const c = check(checks, 'a sign-in request is accepted');
    expectFailure(c, 'must go on to a sign-in page');
    expect(c.detail).toBe('error=access_denied');
  });
});

describe('mcp-fw auth doctor: iss in authorization responses', () => {
  it('iss in authorization responses: advertised but missing from the error redirect fails', async () => {
    // Port 0: the routes read the origin once the server listens.
    let origin = '';
    const handle = await serveHttp(
      createServer({ name: 'broken', version: '1.0.0', providers: [Open] }),
      {
        port: 0,
        routes: async (req) => {
          const json = (body: unknown): HttpReply => ({
            status: req.path === '/oauth/token' ? 400 : req.path === '/oauth/register' ? 201 : 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (req.path.startsWith('/.well-known/oauth-protected-resource'))
            return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
          if (req.path === '/.well-known/oauth-authorization-server')
            return json({
              issuer: origin,
              authorization_endpoint: `${origin}/oauth/authorize`,
              token_endpoint: `${origin}/oauth/token`,
              registration_endpoint: `${origin}/oauth/register`,
              code_challenge_methods_supported: ['S256'],
              client_id_metadata_document_supported: true,
              authorization_response_iss_parameter_supported: true,
            });
          if (req.path === '/oauth/register') return json({ client_id: 'c1' });
          if (req.path === '/oauth/token') return json({ error: 'invalid_grant' });
          if (req.path === '/oauth/authorize') {
            const q = req.url.searchParams;
            const back = new URL(q.get('redirect_uri')!);
            if (q.get('code_challenge_method') !== 'S256')
              back.searchParams.set('error', 'invalid_request');
            else back.searchParams.set('code', 'x');
            return { status: 302, headers: { location: back.href } };
          }
          return undefined;
        },
        authenticate: () => ({ reject: { status: 401, message: 'no' } }),
      },
    );
    origin = new URL(handle.url).origin;
    try {
      const checks = await authDoctor(handle.url);
      const c = check(checks, 'iss in authorization responses');
      expectFailure(c, `Send iss=${origin} in every authorization response`);
      expect(c.detail).toBe('advertised, but the error redirect carries no iss');
      expect(check(checks, 'PKCE enforced at the authorization endpoint').ok).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('mcp-fw auth doctor: metadata of an issuer with a path', () => {
  it('authorization server metadata: served at the appended well-known path names the RFC 8414 one', async () => {
    const server = await brokenServer({ issuerPath: '/tenant' });
    try {
      const checks = await authDoctor(server.url);
      const c = check(checks, 'authorization server metadata');
      const origin = new URL(server.url).origin;
      expectFailure(
        c,
        `Serve the metadata at ${origin}/.well-known/oauth-authorization-server/tenant: for an issuer with a path, RFC 8414 §3.1 inserts`,
      );
      expect(c.detail).toContain(
        `but found at ${origin}/tenant/.well-known/oauth-authorization-server`,
      );
    } finally {
      await server.close();
    }
  });
});

describe('mcp-fw auth doctor on our authorization server with a misconfigured upstream', () => {
  /**
   * Our authorization server on its MCP server's origin, with `upstream` as the IdP it sends
   * people to and `options` for the rest (registration off, …).
   */
  async function own(
    upstream: (origin: string) => Promise<{
      upstream: ReturnType<typeof oidcUpstream>;
      close: () => Promise<void>;
    }>,
    options: Partial<AuthorizationServerOptions> = {},
  ) {
    // The upstream's callback names the port: a port taken meanwhile is tried again.
    return onFreePort(async (port) => {
      const origin = `http://127.0.0.1:${port}`;
      const idp = await upstream(origin);
      try {
        const as = await authorizationServer({
          resource: `${origin}/mcp`,
          scopes: ['notes:read'],
          upstream: idp.upstream,
          ...options,
        });
        const handle = await serveHttp(
          createServer({
            name: 'notes',
            version: '1.0.0',
            providers: [Open],
            logger: { error() {}, warn() {} },
          }),
          { port, ...as.protect() },
        );
        return {
          url: handle.url,
          origin,
          close: async () => {
            await handle.close();
            await idp.close();
          },
        };
      } catch (error) {
        await idp.close();
        throw error;
      }
    });
  }

  /** The dev IdP with this server's callback registered, as a public client. */
  async function devIdp(origin: string) {
    const idp = await devUpstreamProvider({ redirectUri: `${origin}/oauth/callback` });
    return {
      upstream: oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId }),
      close: () => idp.close(),
    };
  }

  it('upstream accepts the callback: an IdP where the callback is not registered fails, naming what to register', async () => {
    const server = await own(async () => {
      // Registered at the IdP: another URL than this server's callback.
      const idp = await devUpstreamProvider({ redirectUri: 'http://127.0.0.1:9/oauth/callback' });
      return {
        upstream: oidcUpstream({
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
        }),
        close: () => idp.close(),
      };
    });
    try {
      const checks = await authDoctor(server.url);
      expect(check(checks, 'a sign-in request is accepted').ok).toBe(true);
      expect(check(checks, 'upstream discovery reachable').ok).toBe(true);
      const c = check(checks, 'upstream accepts the callback');
      const callback = `${new URL(server.url).origin}/oauth/callback`;
      expectFailure(c, `register ${callback} as a redirect URI of the client mcp-fw-dev`);
      expect(c.detail).toContain('refuses the sign-in for client mcp-fw-dev');
      expect(c.detail).toMatch(/redirect_uri/);
    } finally {
      await server.close();
    }
  });

  it('upstream discovery reachable: an upstream issuer nobody answers at fails the sign-in, naming the discovery URL', async () => {
    const dead = await freePort();
    const server = await own(async () => ({
      upstream: oidcUpstream({ issuer: `http://127.0.0.1:${dead}`, clientId: 'x' }),
      close: async () => {},
    }));
    try {
      const checks = await authDoctor(server.url);
      const c = check(checks, 'a sign-in request is accepted');
      expectFailure(c, 'cannot start a sign-in at its upstream identity provider');
      expect(c.detail).toContain(
        `error=temporarily_unavailable: the sign-in provider cannot be reached now: the upstream 127.0.0.1:${dead}'s discovery at http://127.0.0.1:${dead}/.well-known/openid-configuration failed`,
      );
    } finally {
      await server.close();
    }
  });

  it('sign-in and upstream IdP: with registration off, a pre-registered client (--client-id) lets the doctor check the sign-in and the upstream', async () => {
    const server = await own(devIdp, {
      registration: false,
      clients: [{ clientId: 'desk', redirectUris: ['http://127.0.0.1:9/desk'] }],
    });
    try {
      const without = await authDoctor(server.url);
      const skipped = check(without, 'sign-in and upstream IdP');
      expect(skipped).toMatchObject({ ok: false, warning: true });
      expect(skipped.fix).toContain('--client-id <id> --redirect-uri <uri>');
      expect(without.some((c) => c.name.startsWith('upstream accepts the callback'))).toBe(false);

      const checks = await authDoctor(server.url, fetch, {
        client: { id: 'desk', redirectUri: 'http://127.0.0.1:9/desk' },
      });
      expect(checks.some((c) => c.name.startsWith('sign-in and upstream IdP'))).toBe(false);
      expect(check(checks, 'PKCE enforced at the authorization endpoint').ok).toBe(true);
      expect(check(checks, 'iss in authorization responses').detail).toBe(
        `advertised, and the error redirect carries iss=${server.origin}`,
      );
      expect(check(checks, 'a sign-in request is accepted').ok).toBe(true);
      expect(check(checks, 'upstream accepts the callback').ok).toBe(true);
      expect(check(checks, 'the token endpoint refuses an invalid grant precisely').detail).toMatch(
        /^HTTP 400, invalid_grant/,
      );
    } finally {
      await server.close();
    }
  });

  it('--client-id without --redirect-uri is refused, naming the missing one', async () => {
    const run = await runCli(
      ['auth', 'doctor', 'http://127.0.0.1:9/mcp', '--client-id', 'desk'],
      cwd,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      '--client-id and --redirect-uri go together: --client-id was given alone.',
    );
  });

  it('client ID metadata documents and dynamic registration: both off on our server fail', async () => {
    const server = await own(devIdp, { registration: false, clientMetadataDocuments: false });
    try {
      const checks = await authDoctor(server.url);
      expectFailure(check(checks, 'client ID metadata documents'), 'clientMetadataDocuments');
      const c = check(checks, 'dynamic registration');
      expectFailure(c, 'MCP clients cannot sign in unless they are pre-registered');
      expect(c.detail).toContain('only pre-registered clients can sign in');
      // Without a client, the invalid grant is answered as an unknown client: precise too.
      expect(check(checks, 'the token endpoint refuses an invalid grant precisely')).toMatchObject({
        ok: true,
        detail: expect.stringMatching(/^HTTP 401, invalid_client/),
      });
    } finally {
      await server.close();
    }
  });
});
