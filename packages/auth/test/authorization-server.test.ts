import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  callTool,
  ownAuthorizationServer,
  SCOPES,
  signInByHand,
  tokenRequest,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// Our own authorization server (@mcp-fw/auth/server) on the MCP server's origin, with
// oidc-provider WITHOUT registration as the upstream IdP, driven through its login and consent
// forms and ours by HTTP form posts.

let env: OwnAuthorizationServer;
beforeAll(async () => {
  env = await ownAuthorizationServer();
});
afterAll(() => env?.close());

async function result(response: Response): Promise<{ text: string; isError?: boolean }> {
  const body = (await response.json()) as {
    result: { content: { text: string }[]; isError?: boolean };
  };
  return { text: body.result.content[0].text, isError: body.result.isError };
}

describe('authorizationServer()', () => {
  it('serves RFC 8414 metadata on the MCP origin: code + PKCE S256 only, CIMD, iss in the redirect', async () => {
    const response = await fetch(`${env.origin}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      issuer: env.origin,
      authorization_endpoint: `${env.origin}/oauth/authorize`,
      token_endpoint: `${env.origin}/oauth/token`,
      registration_endpoint: `${env.origin}/oauth/register`,
      revocation_endpoint: `${env.origin}/oauth/revoke`,
      jwks_uri: `${env.origin}/oauth/jwks`,
      scopes_supported: SCOPES,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: [
        'none',
        'client_secret_basic',
        'client_secret_post',
      ],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    const prm = (await (
      await fetch(`${env.origin}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as { authorization_servers: string[] };
    expect(prm.authorization_servers).toEqual([env.origin]);
  });

  it('signs in at the upstream, asks consent, and the token carries the upstream identity into ctx.auth', async () => {
    const browser = new Browser();
    browser.login = 'bob';
    const { params, tokens, clientId } = await signInByHand(env.origin, env.resource, { browser });
    expect(params.get('iss')).toBe(env.origin);
    expect(params.get('state')).toBe('st-1');
    expect(browser.consentPage?.html).toContain('attack-test');
    expect(browser.consentPage?.html).toContain('bob@example.test');
    expect(browser.consentPage?.html).toContain('notes:write');
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({
      token_type: 'Bearer',
      scope: 'notes:read notes:write',
      refresh_token: expect.any(String),
    });
    const me = JSON.parse(
      (await result(await callTool(env.resource, tokens.body.access_token as string, 'whoami')))
        .text,
    );
    expect(me).toMatchObject({
      subject: 'bob',
      clientId,
      scopes: ['notes:read', 'notes:write'],
      claims: {
        iss: env.origin,
        aud: env.resource,
        email: 'bob@example.test',
        email_verified: true,
        name: 'bob',
        idp: 'dev-idp',
      },
    });
  });

  it('lets a tool call the upstream as the caller with ctx.auth.upstream.accessToken()', async () => {
    const { tokens } = await signInByHand(env.origin, env.resource);
    const userinfo = `${env.idp.issuer}/me`;
    const { text, isError } = await result(
      await callTool(env.resource, tokens.body.access_token as string, 'upstream', {
        url: userinfo,
      }),
    );
    expect(isError).toBeFalsy();
    expect(JSON.parse(text)).toMatchObject({ sub: 'alice', email: 'alice@example.test' });
  });

  it('rotates refresh tokens, and revocation (RFC 7009) ends the sign-in for its access tokens too', async () => {
    const { tokens, clientId } = await signInByHand(env.origin, env.resource);
    const refreshed = await tokenRequest(env.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    const access = refreshed.body.access_token as string;
    expect((await callTool(env.resource, access, 'whoami')).status).toBe(200);
    const revoked = await fetch(`${env.origin}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: refreshed.body.refresh_token as string,
        client_id: clientId,
      }),
    });
    expect(revoked.status).toBe(200);
    const after = await callTool(env.resource, access, 'whoami');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('revoked');
  });
});
