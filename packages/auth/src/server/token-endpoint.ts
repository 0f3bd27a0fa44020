import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import type { CodeGrant } from './authorize.js';
import { authenticateClient } from './client-auth.js';
import { CLIENT_CREDENTIALS, ClientError, JWT_BEARER, type KnownClient } from './clients.js';
import { json, oauthError, type ServerContext, type TokenFamily } from './context.js';
import { pkceMatches, randomToken, sha256 } from './crypto.js';
import { clientCredentials, identityAssertionGrant } from './machine-grants.js';

const MAX_FORM = 16 * 1024;

/** Reads a form body; undefined when too large. */
async function form(req: HttpRequestView): Promise<URLSearchParams | undefined> {
  const body = await req.text(MAX_FORM);
  return body === undefined ? undefined : new URLSearchParams(body);
}

/** POST `/token`: authorization code, refresh token, client credentials and jwt-bearer (ID-JAG). */
export async function token(ctx: ServerContext, req: HttpRequestView): Promise<HttpReply> {
  if (req.method !== 'POST')
    return oauthError(405, 'invalid_request', 'the token endpoint takes POST');
  const f = await form(req);
  if (!f) return oauthError(413, 'invalid_request', 'the token request is too large');
  let client: KnownClient;
  try {
    client = await authenticateClient(ctx, req, f);
  } catch (error) {
    if (error instanceof ClientError) return oauthError(401, 'invalid_client', error.message);
    throw error;
  }
  const grantType = f.get('grant_type');
  if (grantType === CLIENT_CREDENTIALS) return clientCredentials(ctx, client, f);
  if (grantType === JWT_BEARER) return identityAssertionGrant(ctx, client, f);
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
    return oauthError(
      400,
      'unsupported_grant_type',
      `grant_type ${grantType ?? '(none)'} is not supported; use authorization_code, refresh_token, client_credentials or ${JWT_BEARER}`,
    );
  if (client.grantTypes && !client.grantTypes.includes(grantType))
    return oauthError(
      400,
      'unauthorized_client',
      `client ${client.clientId} may not use ${grantType} (its grantTypes: ${client.grantTypes.join(' ')})`,
    );
  if (grantType === 'authorization_code') return exchangeCode(ctx, client, f);
  return refresh(ctx, client, f);
}

async function exchangeCode(
  ctx: ServerContext,
  client: KnownClient,
  f: URLSearchParams,
): Promise<HttpReply> {
  const code = f.get('code');
  if (!code) return oauthError(400, 'invalid_request', 'the request carries no code');
  const hash = await sha256(code);
  const text = await ctx.store.take(`code:${hash}`);
  if (!text) {
    // A code used twice: whoever holds it may be an attacker, so what it gave is withdrawn too.
    const family = await ctx.store.take(`code-used:${hash}`);
    if (family) {
      await ctx.store.delete(`family:${family}`);
      return oauthError(
        400,
        'invalid_grant',
        'this code was already used; the tokens issued for it are revoked',
      );
    }
    return oauthError(400, 'invalid_grant', 'the code is unknown or has expired');
  }
  const grant = JSON.parse(text) as CodeGrant;
  if (grant.clientId !== client.clientId)
    return oauthError(400, 'invalid_grant', 'the code was issued to another client');
  if (f.get('redirect_uri') !== grant.redirectUri)
    return oauthError(
      400,
      'invalid_grant',
      'redirect_uri must be the one of the authorization request',
    );
  const verifier = f.get('code_verifier');
  if (!verifier || !(await pkceMatches(verifier, grant.codeChallenge)))
    return oauthError(
      400,
      'invalid_grant',
      'the code_verifier does not match the code_challenge (PKCE S256)',
    );
  const resource = f.get('resource');
  if (resource !== null && resource.replace(/\/$/, '') !== grant.resource.replace(/\/$/, ''))
    return oauthError(
      400,
      'invalid_target',
      `the code was issued for ${grant.resource}, not ${resource}`,
    );
  const familyId = randomToken();
  await ctx.store.set(`code-used:${hash}`, familyId, 10 * 60_000);
  const family: TokenFamily = {
    clientId: client.clientId,
    subject: grant.subject,
    claims: grant.claims,
    scopes: grant.scopes,
    resource: grant.resource,
    upstream: grant.upstream,
    expiresAt: Date.now() + ctx.refreshTokenTtlMs,
  };
  return issue(ctx, familyId, family, family.scopes);
}

async function refresh(
  ctx: ServerContext,
  client: KnownClient,
  f: URLSearchParams,
): Promise<HttpReply> {
  const presented = f.get('refresh_token');
  if (!presented) return oauthError(400, 'invalid_request', 'the request carries no refresh_token');
  const hash = await sha256(presented);
  const familyId = await ctx.store.take(`refresh:${hash}`);
  if (!familyId) {
    // A rotated-out token presented again: it was copied, so the whole family is revoked.
    const reused = await ctx.store.get(`refresh-used:${hash}`);
    if (reused) {
      await ctx.store.delete(`family:${reused}`);
      return oauthError(
        400,
        'invalid_grant',
        'this refresh token was already used; every token of its sign-in is revoked, sign in again',
      );
    }
    return oauthError(400, 'invalid_grant', 'the refresh token is unknown, expired or revoked');
  }
  const text = await ctx.store.get(`family:${familyId}`);
  if (!text) return oauthError(400, 'invalid_grant', 'the refresh token was revoked');
  const family = JSON.parse(text) as TokenFamily;
  if (family.clientId !== client.clientId) {
    await ctx.store.delete(`family:${familyId}`);
    return oauthError(
      400,
      'invalid_grant',
      'the refresh token was issued to another client; it is revoked',
    );
  }
  await ctx.store.set(`refresh-used:${hash}`, familyId, Math.max(1, family.expiresAt - Date.now()));
  const asked = f.get('scope');
  let scopes = family.scopes;
  if (asked !== null) {
    const wanted = asked.split(' ').filter((s) => s);
    const extra = wanted.filter((s) => !family.scopes.includes(s));
    if (extra.length) {
      // The token stays usable: only this request asked too much.
      await ctx.store.set(`refresh:${hash}`, familyId, Math.max(1, family.expiresAt - Date.now()));
      await ctx.store.delete(`refresh-used:${hash}`);
      return oauthError(
        400,
        'invalid_scope',
        `a refresh cannot add scope ${extra.join(' ')}; it was not granted at sign-in (authorize again to ask for it)`,
      );
    }
    scopes = wanted;
  }
  const resource = f.get('resource');
  if (resource !== null && resource.replace(/\/$/, '') !== family.resource.replace(/\/$/, ''))
    return oauthError(
      400,
      'invalid_target',
      `the refresh token is for ${family.resource}, not ${resource}`,
    );
  return issue(ctx, familyId, family, scopes);
}

/** Mints an access token and the family's next refresh token. */
async function issue(
  ctx: ServerContext,
  familyId: string,
  family: TokenFamily,
  scopes: readonly string[],
): Promise<HttpReply> {
  const refreshToken = randomToken();
  const refreshHash = await sha256(refreshToken);
  const ttl = Math.max(1, family.expiresAt - Date.now());
  await ctx.store.set(
    `family:${familyId}`,
    JSON.stringify({ ...family, refresh: refreshHash }),
    ttl,
  );
  await ctx.store.set(`refresh:${refreshHash}`, familyId, ttl);
  const accessToken = await ctx.sign(family, familyId, scopes);
  return json(200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ctx.accessTokenTtl,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  });
}

/**
 * POST `/revoke` (RFC 7009): a refresh or access token of the calling client ends its whole
 * sign-in. Unknown tokens, and tokens of other clients, are answered 200 without effect.
 */
export async function revoke(
  ctx: ServerContext,
  req: HttpRequestView,
  familyOfAccessToken: (
    token: string,
  ) => Promise<{ familyId: string; clientId: string } | undefined>,
): Promise<HttpReply> {
  if (req.method !== 'POST')
    return oauthError(405, 'invalid_request', 'the revocation endpoint takes POST');
  const f = await form(req);
  if (!f) return oauthError(413, 'invalid_request', 'the revocation request is too large');
  let client: KnownClient;
  try {
    client = await authenticateClient(ctx, req, f);
  } catch (error) {
    if (error instanceof ClientError) return oauthError(401, 'invalid_client', error.message);
    throw error;
  }
  const presented = f.get('token');
  if (!presented) return oauthError(400, 'invalid_request', 'the request names no token');
  let familyId = await ctx.store.get(`refresh:${await sha256(presented)}`);
  if (!familyId) {
    const access = await familyOfAccessToken(presented);
    if (access?.clientId === client.clientId) familyId = access.familyId;
  }
  if (familyId) {
    const text = await ctx.store.get(`family:${familyId}`);
    if (text && (JSON.parse(text) as TokenFamily).clientId === client.clientId)
      await ctx.store.delete(`family:${familyId}`);
  }
  return json(200, {});
}
