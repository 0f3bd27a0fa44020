import type { HttpReply } from '@mcp-fw/core/http';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { VerifierUnavailableError } from '../auth-info.js';
import { remoteKeySet } from '../remote-keys.js';
import type { IdentityProviderKeys } from './context.js';
import { ASSERTION_ALGORITHMS, firstUse, why } from './client-auth.js';
import { CLIENT_CREDENTIALS, JWT_BEARER, type KnownClient } from './clients.js';
import {
  json,
  oauthError,
  type ServerContext,
  type TokenFamily,
  type TrustedIdentityProvider,
} from './context.js';
import { randomToken } from './crypto.js';

const ID_JAG_TYP = 'oauth-id-jag+jwt';

/** The key lookups of the trusted identity providers, by issuer. */
export function identityProviderKeys(
  providers: readonly TrustedIdentityProvider[],
): Map<string, IdentityProviderKeys> {
  const keys = new Map<string, IdentityProviderKeys>();
  for (const p of providers) {
    let url: URL;
    try {
      url = new URL(p.jwksUri);
    } catch {
      throw new TypeError(
        `authorizationServer: trustedIdentityProviders: jwksUri ${p.jwksUri} of ${p.issuer} is not a URL`,
      );
    }
    keys.set(
      p.issuer,
      remoteKeySet({ url: url.href, cooldownMs: 30_000, maxAgeMs: 600_000, timeoutMs: 5_000 }),
    );
  }
  return keys;
}

function allows(client: KnownClient, grant: string): boolean {
  return (client.grantTypes ?? ['authorization_code', 'refresh_token']).includes(grant as never);
}

/**
 * The scopes to grant: those asked for (each within `offered`), or all of `offered`; only
 * scopes the client may have. A scope beyond that is refused, not silently dropped.
 */
function grantScopes(
  ctx: ServerContext,
  client: KnownClient,
  asked: string | null,
  offered: readonly string[],
): { scopes: string[] } | { refused: HttpReply } {
  const allowed = client.scopes ?? ctx.scopes;
  const within = offered.filter((s) => allowed.includes(s) && ctx.scopes.includes(s));
  if (asked === null) return { scopes: [...new Set(within)] };
  const wanted = [...new Set(asked.split(' ').filter((s) => s))];
  const extra = wanted.filter((s) => !within.includes(s));
  if (extra.length)
    return {
      refused: oauthError(
        400,
        'invalid_scope',
        `client ${client.clientId} may not be granted ${extra.join(' ')}; it may have ${within.join(' ') || '(none)'}`,
      ),
    };
  return { scopes: wanted };
}

function resourceMismatch(ctx: ServerContext, resource: string | null): HttpReply | undefined {
  if (resource === null || resource.replace(/\/$/, '') === ctx.resource.replace(/\/$/, ''))
    return undefined;
  return oauthError(
    400,
    'invalid_target',
    `this server issues tokens only for the resource ${ctx.resource}, not ${resource}`,
  );
}

/** An access token without a refresh token (RFC 6749 §4.4.3): the client asks again instead. */
async function issueMachineToken(
  ctx: ServerContext,
  family: Omit<TokenFamily, 'expiresAt' | 'upstream' | 'resource'>,
  idp: string,
): Promise<HttpReply> {
  const familyId = randomToken();
  const record: TokenFamily = {
    ...family,
    resource: ctx.resource,
    upstream: '',
    expiresAt: Date.now() + ctx.accessTokenTtl * 1000,
  };
  // The family exists so that the token can be revoked (RFC 7009) like any other.
  await ctx.store.set(`family:${familyId}`, JSON.stringify(record), ctx.accessTokenTtl * 1000);
  const accessToken = await ctx.sign(record, familyId, record.scopes, idp);
  return json(200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ctx.accessTokenTtl,
    scope: record.scopes.join(' '),
  });
}

/** `grant_type=client_credentials` (the `oauth-client-credentials` extension). */
export async function clientCredentials(
  ctx: ServerContext,
  client: KnownClient,
  f: URLSearchParams,
): Promise<HttpReply> {
  if (client.authMethod === 'none')
    return oauthError(
      401,
      'invalid_client',
      `client ${client.clientId} is a public client; client credentials need a confidential client (a secret or private_key_jwt)`,
    );
  if (!allows(client, CLIENT_CREDENTIALS))
    return oauthError(
      400,
      'unauthorized_client',
      `client ${client.clientId} may not use client_credentials; the operator lists it in the client's grantTypes`,
    );
  const wrongResource = resourceMismatch(ctx, f.get('resource'));
  if (wrongResource) return wrongResource;
  const granted = grantScopes(ctx, client, f.get('scope'), client.scopes ?? ctx.scopes);
  if ('refused' in granted) return granted.refused;
  return issueMachineToken(
    ctx,
    { clientId: client.clientId, subject: client.clientId, claims: {}, scopes: granted.scopes },
    CLIENT_CREDENTIALS,
  );
}

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with an ID-JAG (enterprise-managed
 * authorization): signed by a trusted identity provider (`typ` oauth-id-jag+jwt), addressed to
 * this issuer, issued to the authenticated client, for this resource, unexpired, used once.
 */
export async function identityAssertionGrant(
  ctx: ServerContext,
  client: KnownClient,
  f: URLSearchParams,
): Promise<HttpReply> {
  const invalid = (description: string) => oauthError(400, 'invalid_grant', description);
  if (!allows(client, JWT_BEARER))
    return oauthError(
      400,
      'unauthorized_client',
      `client ${client.clientId} may not use the jwt-bearer grant; the operator lists ${JWT_BEARER} in the client's grantTypes`,
    );
  const assertion = f.get('assertion');
  if (!assertion) return oauthError(400, 'invalid_request', 'the request carries no assertion');
  let typ: unknown;
  let iss: unknown;
  try {
    typ = decodeProtectedHeader(assertion).typ;
    iss = decodeJwt(assertion).iss;
  } catch {
    return invalid('the assertion is not a JWT');
  }
  if (typeof typ !== 'string' || typ.toLowerCase().replace(/^application\//, '') !== ID_JAG_TYP)
    return invalid(
      `the assertion's typ is ${JSON.stringify(typ ?? null)}, not ${ID_JAG_TYP}: only Identity Assertion JWT Authorization Grants are accepted`,
    );
  const keys = typeof iss === 'string' ? ctx.identityProviders.get(iss) : undefined;
  if (!keys)
    return invalid(
      `the ID-JAG was issued by ${JSON.stringify(iss ?? null)}, which is not a trusted identity provider of this server (trustedIdentityProviders)`,
    );
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      issuer: iss as string,
      audience: [ctx.issuer, `${ctx.issuer}/`],
      algorithms: ASSERTION_ALGORITHMS,
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'client_id', 'resource'],
      clockTolerance: 5,
    }));
  } catch (error) {
    if (error instanceof VerifierUnavailableError)
      return json(
        503,
        {
          error: 'temporarily_unavailable',
          error_description: `${error.message}; try again later`,
        },
        { 'retry-after': '30' },
      );
    const reason = why(error, ctx).replace(
      /aud must be .*\)/,
      `aud must be this authorization server's issuer ${ctx.issuer})`,
    );
    return invalid(`the ID-JAG ${reason}`);
  }
  if (payload.client_id !== client.clientId)
    return invalid(
      `the ID-JAG was issued to client ${String(payload.client_id)}, not to ${client.clientId}`,
    );
  const resource = String(payload.resource);
  if (resource.replace(/\/$/, '') !== ctx.resource.replace(/\/$/, ''))
    return oauthError(
      400,
      'invalid_target',
      `the ID-JAG is for the resource ${resource}, not ${ctx.resource}`,
    );
  const wrongResource = resourceMismatch(ctx, f.get('resource'));
  if (wrongResource) return wrongResource;
  if (!(await firstUse(ctx, 'id-jag', iss as string, String(payload.jti), payload.exp as number)))
    return invalid(
      'this ID-JAG was already used; exchange the ID token at the identity provider for a new one',
    );
  const offered =
    typeof payload.scope === 'string'
      ? payload.scope.split(' ').filter((s) => s)
      : (client.scopes ?? ctx.scopes);
  const granted = grantScopes(ctx, client, f.get('scope'), offered);
  if ('refused' in granted) return granted.refused;
  const claims: Record<string, unknown> = {};
  for (const name of ['email', 'email_verified', 'name', 'preferred_username'])
    if (payload[name] !== undefined) claims[name] = payload[name];
  return issueMachineToken(
    ctx,
    {
      clientId: client.clientId,
      subject: String(payload.sub),
      claims,
      scopes: granted.scopes,
    },
    iss as string,
  );
}
