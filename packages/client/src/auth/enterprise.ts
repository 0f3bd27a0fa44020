import { AuthorizationError } from './errors.js';

/**
 * Enterprise-managed authorization (the MCP extension, SEP-990): the user's identity provider
 * vouches for them, so no consent screen is shown. What the client holds from the sign-in to
 * its identity provider.
 */
export interface EnterpriseIdentity {
  /** The identity provider's token endpoint (where the ID token is exchanged for an ID-JAG). */
  readonly idpTokenEndpoint: string;
  /** The client's id at the identity provider. */
  readonly idpClientId: string;
  /** Its secret there, if it is a confidential client (sent as `client_secret_basic`). */
  readonly idpClientSecret?: string;
  /** The user's OpenID Connect ID token from the identity provider, or a function that gets a fresh one. */
  readonly idToken: string | (() => Promise<string> | string);
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
/** The grant that presents the ID-JAG to the MCP server's authorization server (RFC 7523). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Exchanges the user's ID token at the identity provider for an Identity Assertion JWT
 * Authorization Grant (ID-JAG) for `issuer`'s `resource` (RFC 8693 token exchange).
 */
export async function identityAssertion(
  identity: EnterpriseIdentity,
  target: { issuer: string; resource: string; scope?: string },
  fetchFn: typeof fetch,
): Promise<string> {
  const idToken =
    typeof identity.idToken === 'function' ? await identity.idToken() : identity.idToken;
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    audience: target.issuer,
    resource: target.resource,
    subject_token: idToken,
    subject_token_type: ID_TOKEN,
  });
  if (target.scope) body.set('scope', target.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (identity.idpClientSecret === undefined) body.set('client_id', identity.idpClientId);
  else
    headers.authorization = `Basic ${btoa(
      `${encodeURIComponent(identity.idpClientId)}:${encodeURIComponent(identity.idpClientSecret)}`,
    )}`;
  let response: Response;
  try {
    response = await fetchFn(identity.idpTokenEndpoint, {
      method: 'POST',
      headers,
      body,
      redirect: 'error',
    });
  } catch (error) {
    throw new AuthorizationError(
      'token-request',
      `Cannot reach the identity provider's token endpoint ${identity.idpTokenEndpoint}: ${String(error)}`,
      { cause: error },
    );
  }
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
  } catch {}
  if (!response.ok || typeof json?.access_token !== 'string')
    throw new AuthorizationError(
      'token-request',
      `The identity provider ${identity.idpTokenEndpoint} refused to exchange the ID token for an ID-JAG for ${target.issuer} (HTTP ${response.status}): ${text.slice(0, 300)}. Check that the identity provider trusts this client for that authorization server.`,
      { status: response.status },
    );
  return json.access_token;
}
