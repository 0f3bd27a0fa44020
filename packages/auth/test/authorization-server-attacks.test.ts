import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { isPrivateAddress } from '../src/server/safe-fetch.ts';
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
  StoppedAtConsent,
  tokenRequest,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// The attack table of issue #36, each row a test named after the attack, against the real
// authorization server, upstream IdP (oidc-provider without registration) and MCP server.

const REDIRECT = 'http://127.0.0.1:9/callback';
let signingKey: JWK;
let env: OwnAuthorizationServer;
let tls: { key: string; cert: string };
let documents: Awaited<ReturnType<typeof httpsHost>>;
/** What the document host serves per path (set by each CIMD test). */
const served = new Map<string, (res: import('node:http').ServerResponse) => void>();

beforeAll(async () => {
  signingKey = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
  tls = selfSigned();
  documents = await httpsHost(tls, (path, res) => {
    const serve = served.get(path);
    if (serve) serve(res);
    else res.writeHead(404).end();
  });
  env = await ownAuthorizationServer({
    signingKey,
    clientMetadataDocuments: { allowPrivateAddresses: true, ca: tls.cert, timeoutMs: 500 },
  });
});
afterAll(async () => {
  await env?.close();
  await documents?.close();
});

/** Starts an authorization request in a fresh browser; returns the first answer (no redirect followed). */
async function firstAnswer(params: Record<string, string | undefined>) {
  const response = await fetch(authorizationUrl(env.origin, params), { redirect: 'manual' });
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

describe('attacks on the authorization server', () => {
  it('a redirect_uri that differs from the registered one is refused on a page, and nothing is sent to it', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const answer = await firstAnswer({
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      code_challenge: pkce().challenge,
    });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.body).toContain('is not one the client');
  });

  it('open-redirect forms of the redirect_uri are refused (other host, userinfo, extra path or query, fragment, other port off loopback)', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const httpsClient = (await (
      await fetch(`${env.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://app.example/cb'] }),
      })
    ).json()) as { client_id: string };
    const forms: [string, string][] = [
      [clientId, 'https://evil.example/callback'],
      [clientId, 'http://127.0.0.1:9@evil.example/callback'],
      [clientId, 'http://127.0.0.1:9/callback/../../evil'],
      [clientId, 'http://127.0.0.1:9/callback/extra'],
      [clientId, 'http://127.0.0.1:9/callback?next=https://evil.example'],
      [clientId, 'http://127.0.0.1:9/callback#x'],
      [clientId, 'http://localhost:9/callback'],
      [clientId, '//evil.example/callback'],
      [httpsClient.client_id, 'https://app.example:8443/cb'],
      [httpsClient.client_id, 'https://app.example.evil.example/cb'],
    ];
    for (const [id, redirect] of forms) {
      const answer = await firstAnswer({
        client_id: id,
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
      });
      expect(answer.status, redirect).toBe(400);
      expect(answer.location, redirect).toBeNull();
    }
    // A loopback redirect may change its port (RFC 8252 §7.3), nothing else.
    const loopbackPort = await firstAnswer({
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:5555/callback',
      code_challenge: pkce().challenge,
    });
    expect(loopbackPort.status).toBe(302);
    expect(loopbackPort.location).toMatch(new RegExp(`^${env.idp.issuer}/`));
    // Registration refuses redirect URIs that could never be safe.
    for (const uri of [
      'javascript:alert(1)//',
      'http://evil.example/cb',
      'https://app.example/cb#frag',
    ]) {
      const response = await fetch(`${env.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect(response.status, uri).toBe(400);
      expect(await response.json(), uri).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });

  it('a PKCE downgrade to plain is refused', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const answer = await firstAnswer({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(answer.status).toBe(302);
    const back = new URL(answer.location!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('code_challenge_method=S256');
    expect(back.searchParams.get('iss')).toBe(env.origin);
    expect(back.searchParams.get('state')).toBe('st-1');
  });

  it('a missing PKCE challenge is refused, and a wrong verifier cannot redeem a code', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const answer = await firstAnswer({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge_method: undefined,
    });
    expect(new URL(answer.location!).searchParams.get('error_description')).toContain(
      'PKCE is required',
    );
    const { challenge } = pkce();
    const params = await new Browser().go(
      authorizationUrl(env.origin, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        resource: env.resource,
      }),
      REDIRECT,
    );
    const wrong = await tokenRequest(env.origin, {
      grant_type: 'authorization_code',
      code: params.get('code')!,
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a replayed code is refused and the tokens issued for it are revoked', async () => {
    const first = await signInByHand(env.origin, env.resource);
    expect(first.tokens.status).toBe(200);
    const access = first.tokens.body.access_token as string;
    expect((await callTool(env.resource, access, 'whoami')).status).toBe(200);
    const replay = await tokenRequest(env.origin, {
      grant_type: 'authorization_code',
      code: first.code,
      code_verifier: first.verifier,
      redirect_uri: first.redirectUri,
      client_id: first.clientId,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(replay.body.error_description).toContain('already used');
    expect((await callTool(env.resource, access, 'whoami')).status).toBe(401);
    const refresh = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: first.tokens.body.refresh_token as string,
      client_id: first.clientId,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a replayed refresh token revokes the whole family', async () => {
    const { tokens, clientId } = await signInByHand(env.origin, env.resource);
    const r1 = tokens.body.refresh_token as string;
    const second = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: r1,
      client_id: clientId,
    });
    expect(second.status).toBe(200);
    const a2 = second.body.access_token as string;
    const r2 = second.body.refresh_token as string;
    expect((await callTool(env.resource, a2, 'whoami')).status).toBe(200);
    const replay = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: r1,
      client_id: clientId,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(replay.body.error_description).toContain('every token of its sign-in is revoked');
    // The legitimate holder's newer tokens die with the family.
    expect((await callTool(env.resource, a2, 'whoami')).status).toBe(401);
    const r2use = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: r2,
      client_id: clientId,
    });
    expect(r2use).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a CIMD document on a private address is refused', async () => {
    const strict = await ownAuthorizationServer({ clientMetadataDocuments: { ca: tls.cert } });
    try {
      served.set('/clients/private.json', (res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            client_id: `${documents.origin}/clients/private.json`,
            redirect_uris: [REDIRECT],
          }),
        ),
      );
      const port = new URL(documents.origin).port;
      for (const clientId of [
        `${documents.origin}/clients/private.json`,
        `https://localhost:${port}/clients/private.json`,
      ]) {
        const response = await fetch(
          authorizationUrl(strict.origin, {
            client_id: clientId,
            redirect_uri: REDIRECT,
            code_challenge: pkce().challenge,
          }),
          { redirect: 'manual' },
        );
        expect(response.status, clientId).toBe(400);
        expect(await response.text(), clientId).toMatch(/private or loopback address/);
      }
    } finally {
      await strict.close();
    }
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('a huge CIMD document is refused', async () => {
    const id = `${documents.origin}/clients/huge.json`;
    const huge = JSON.stringify({
      client_id: id,
      redirect_uris: [REDIRECT],
      client_name: 'x'.repeat(100_000),
    });
    served.set('/clients/huge.json', (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(huge),
    );
    served.set('/clients/huge-chunked.json', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(huge);
      res.end();
    });
    for (const path of ['huge', 'huge-chunked']) {
      const answer = await firstAnswer({
        client_id: `${documents.origin}/clients/${path}.json`,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
      });
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatch(/over 5120/);
    }
  });

  it('a slow CIMD document is refused', async () => {
    served.set('/clients/slow.json', () => {
      /* never answers */
    });
    const started = Date.now();
    const answer = await firstAnswer({
      client_id: `${documents.origin}/clients/slow.json`,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('did not answer within 500 ms');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a CIMD document naming another client_id is refused', async () => {
    served.set('/clients/impostor.json', (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: 'https://trusted.example/client.json',
          client_name: 'Trusted',
          redirect_uris: [REDIRECT],
        }),
      ),
    );
    const answer = await firstAnswer({
      client_id: `${documents.origin}/clients/impostor.json`,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('it must name its own URL');
  });

  it('consent without the CSRF token is refused', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const browser = new Browser();
    browser.consent = 'stop';
    const url = authorizationUrl(env.origin, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
    });
    await expect(browser.go(url, REDIRECT)).rejects.toBeInstanceOf(StoppedAtConsent);
    const { fields } = browser.consentPage!;
    const post = (who: Browser | undefined, form: Record<string, string>, origin?: string) =>
      (who ?? new Browser()).fetch(`${env.origin}/oauth/consent`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(origin ? { origin } : {}),
        },
        body: new URLSearchParams(form).toString(),
      });
    const noToken = await post(browser, { transaction: fields.transaction, decision: 'allow' });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain('CSRF token');
    const wrongToken = await post(browser, { ...fields, csrf: 'forged', decision: 'allow' });
    expect(wrongToken.status).toBe(403);
    // The right token from another browser (a cross-site form has no sign-in cookie).
    const otherBrowser = await post(undefined, { ...fields, decision: 'allow' });
    expect(otherBrowser.status).toBe(403);
    const crossOrigin = await post(
      browser,
      { ...fields, decision: 'allow' },
      'https://evil.example',
    );
    expect(crossOrigin.status).toBe(403);
    // None of that spent the sign-in: the real page's answer still works.
    const real = await post(browser, { ...fields, decision: 'allow' }, env.origin);
    expect(real.status).toBe(302);
    expect(new URL(real.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('a client name carrying markup is shown as text on the consent page, which cannot be framed or run scripts', async () => {
    const clientId = await registerClient(
      env.origin,
      REDIRECT,
      '<script>alert(1)</script><img src=x onerror=alert(2)>',
    );
    const browser = new Browser();
    browser.consent = 'stop';
    await expect(
      browser.go(
        authorizationUrl(env.origin, {
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
        }),
        REDIRECT,
      ),
    ).rejects.toBeInstanceOf(StoppedAtConsent);
    const html = browser.consentPage!.html;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const headers = browser.consentPage!.headers;
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('a token minted for another resource is refused', async () => {
    const key = await importJWK({ ...signingKey, alg: 'ES256' }, 'ES256');
    const { tokens } = await signInByHand(env.origin, env.resource);
    const gid = JSON.parse(
      atob(
        (tokens.body.access_token as string).split('.')[1].replace(/-/g, '+').replace(/_/g, '/'),
      ),
    ).gid;
    // Same issuer, same key, a live sign-in: only the audience names another resource.
    const other = await new SignJWT({ scope: 'notes:read', gid, client_id: 'x' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer(env.origin)
      .setAudience('http://127.0.0.1:1/other-mcp')
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const refused = await callTool(env.resource, other, 'whoami');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('not issued for this resource');
    // Nor will the server issue one: another resource at /authorize or /token is invalid_target.
    const clientId = await registerClient(env.origin, REDIRECT);
    const answer = await firstAnswer({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      resource: 'http://127.0.0.1:1/other-mcp',
    });
    expect(new URL(answer.location!).searchParams.get('error')).toBe('invalid_target');
    const { challenge, verifier } = pkce();
    const params = await new Browser().go(
      authorizationUrl(env.origin, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
      }),
      REDIRECT,
    );
    const exchange = await tokenRequest(env.origin, {
      grant_type: 'authorization_code',
      code: params.get('code')!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: 'http://127.0.0.1:1/other-mcp',
    });
    expect(exchange).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('scope escalation at refresh is refused', async () => {
    const { tokens, clientId } = await signInByHand(env.origin, env.resource, {
      scope: 'notes:read',
    });
    expect(tokens.body.scope).toBe('notes:read');
    const escalate = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
      scope: 'notes:read notes:write',
    });
    expect(escalate).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(escalate.body.error_description).toContain('notes:write');
    // The refusal spent nothing: the same refresh token still works, within its grant.
    const same = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
      scope: 'notes:read',
    });
    expect(same).toMatchObject({ status: 200, body: { scope: 'notes:read' } });
    const write = await callTool(env.resource, same.body.access_token as string, 'write');
    expect(write.status).toBe(403);
  });

  it('an upstream IdP that returns an error ends the sign-in with access_denied naming it', async () => {
    const clientId = await registerClient(env.origin, REDIRECT);
    const browser = new Browser();
    browser.abortUpstream = true;
    const params = await browser.go(
      authorizationUrl(env.origin, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
      }),
      REDIRECT,
    );
    expect(params.get('code')).toBeNull();
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_description')).toContain(
      'the sign-in at dev-idp failed: access_denied',
    );
    expect(params.get('iss')).toBe(env.origin);
    expect(params.get('state')).toBe('st-1');
  });

  it('an upstream IdP whose token endpoint refuses ends the sign-in with access_denied naming its error', async () => {
    const misconfigured = await ownAuthorizationServer(
      {},
      {
        upstream: (idp) => ({
          name: 'dev-idp',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: 'not-the-secret',
          scopes: ['openid', 'email'],
        }),
      },
    );
    try {
      const clientId = await registerClient(misconfigured.origin, REDIRECT);
      const params = await new Browser().go(
        authorizationUrl(misconfigured.origin, {
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
        }),
        REDIRECT,
      );
      expect(params.get('code')).toBeNull();
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('error_description')).toMatch(
        /the upstream dev-idp's token endpoint refused: invalid_client/,
      );
      expect(params.get('iss')).toBe(misconfigured.origin);
    } finally {
      await misconfigured.close();
    }
  });

  it('an upstream IdP that returns an unverified email: the email is never passed on, and can refuse the sign-in', async () => {
    const unverified = (login: string) => ({
      sub: login,
      email: 'ceo@victim.example',
      email_verified: false,
    });
    const lenient = await ownAuthorizationServer({}, { account: unverified });
    const strict = await ownAuthorizationServer(
      { requireVerifiedEmail: true },
      { account: unverified },
    );
    try {
      const { tokens } = await signInByHand(lenient.origin, lenient.resource);
      const response = (await (
        await callTool(lenient.resource, tokens.body.access_token as string, 'whoami')
      ).json()) as {
        result: { content: { text: string }[] };
      };
      const me = JSON.parse(response.result.content[0].text);
      expect(me.subject).toBe('alice');
      expect(me.claims.email).toBeUndefined();
      expect(JSON.stringify(me)).not.toContain('ceo@victim.example');
      const clientId = await registerClient(strict.origin, REDIRECT);
      const params = await new Browser().go(
        authorizationUrl(strict.origin, {
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
        }),
        REDIRECT,
      );
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('error_description')).toContain(
        'has not verified the email ceo@victim.example',
      );
    } finally {
      await lenient.close();
      await strict.close();
    }
  });
});
