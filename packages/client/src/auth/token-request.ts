import type { CryptoKey } from 'jose';
import type { AuthorizationServerMetadata } from './discovery.js';
import type { DpopKey } from './dpop.js';
import { AuthorizationError } from './errors.js';
import { randomString } from './pkce.js';
import type { StoredClient, StoredTokens } from './token-store.js';

/** A private key for `private_key_jwt` client authentication (RFC 7523 §2.2). */
export interface ClientAssertionKey {
  /** A PKCS#8 PEM string, or a `CryptoKey`. */
  readonly privateKey: string | CryptoKey;
  /** The JWS algorithm (default `ES256`). */
  readonly algorithm?: string;
  /** A key id put in the assertion's header. */
  readonly keyId?: string;
}

/**
 * POSTs a grant to the token endpoint with the client's authentication (`none`,
 * `client_secret_basic`, `client_secret_post` or `private_key_jwt`), and returns the tokens.
 */
export async function requestTokens(
  metadata: AuthorizationServerMetadata,
  client: StoredClient,
  grant: Record<string, string>,
  context: {
    resource: string;
    scope?: string;
    key?: ClientAssertionKey;
    /** Asks for a DPoP-bound token, proving possession of this key. */
    dpop?: DpopKey;
    fetch: typeof fetch;
  },
): Promise<StoredTokens> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  switch (client.tokenEndpointAuthMethod) {
    case 'client_secret_basic':
      headers.authorization = `Basic ${btoa(
        `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`,
      )}`;
      break;
    case 'client_secret_post':
      body.set('client_id', client.clientId);
      body.set('client_secret', client.clientSecret ?? '');
      break;
    case 'private_key_jwt':
      if (!context.key)
        throw new AuthorizationError(
          'token-request',
          `Client ${client.clientId} authenticates with private_key_jwt but no privateKey was given.`,
        );
      body.set('client_id', client.clientId);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', await clientAssertion(client.clientId, metadata, context.key));
      break;
    default:
      body.set('client_id', client.clientId);
  }
  const endpoint = new URL(metadata.token_endpoint);
  let response: Response;
  let text: string;
  let json: Record<string, unknown> | undefined;
  for (let attempt = 0; ; attempt++) {
    if (context.dpop) headers.dpop = await context.dpop.proof('POST', endpoint);
    try {
      response = await context.fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
      });
    } catch (error) {
      throw new AuthorizationError(
        'token-request',
        `Cannot reach the token endpoint ${metadata.token_endpoint}: ${String(error)}`,
        { cause: error },
      );
    }
    text = await response.text();
    json = undefined;
    try {
      json = JSON.parse(text);
    } catch {}
    // RFC 9449 §8: the authorization server wants its nonce in the proof; once.
    const retry =
      attempt === 0 &&
      response.status === 400 &&
      json?.error === 'use_dpop_nonce' &&
      context.dpop?.takeNonce(endpoint, response) === true;
    if (!retry) break;
  }
  if (!response.ok || typeof json?.access_token !== 'string')
    throw new AuthorizationError(
      'token-request',
      `The token endpoint ${metadata.token_endpoint} refused the ${grant.grant_type} grant (HTTP ${response.status}): ${
        typeof json?.error === 'string'
          ? `${json.error}${typeof json.error_description === 'string' ? `: ${json.error_description}` : ''}`
          : text.slice(0, 300)
      }`,
      { status: response.status },
    );
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : undefined;
  return {
    accessToken: json.access_token,
    tokenType: typeof json.token_type === 'string' ? json.token_type : 'Bearer',
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : grant.refresh_token,
    expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
    scope: context.scope,
    resource: context.resource,
    issuer: metadata.issuer,
  };
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encoding. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** A `private_key_jwt` assertion: iss = sub = client id, aud = the issuer (RFC 7523bis). */
async function clientAssertion(
  clientId: string,
  metadata: AuthorizationServerMetadata,
  key: ClientAssertionKey,
): Promise<string> {
  // jose is loaded only by clients that sign assertions.
  const { SignJWT, importPKCS8 } = await import('jose');
  const algorithm = key.algorithm ?? 'ES256';
  const signingKey =
    typeof key.privateKey === 'string'
      ? await importPKCS8(key.privateKey, algorithm)
      : key.privateKey;
  return new SignJWT({})
    .setProtectedHeader({ alg: algorithm, typ: 'JWT', ...(key.keyId && { kid: key.keyId }) })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(metadata.issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomString(16))
    .sign(signingKey);
}
