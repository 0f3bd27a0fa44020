import type { AuthorizationServerMetadata } from './discovery.js';
import { AuthorizationError } from './errors.js';
import { pkcePair, randomString } from './pkce.js';
import { requestTokens } from './token-request.js';
import type { StoredClient, StoredTokens } from './token-store.js';

/** Shows the user the authorization URL; resolves with the URL the browser was redirected back to. */
export type AuthorizationUrlHandler = (url: URL) => Promise<string | URL> | string | URL;

/**
 * The authorization code grant with PKCE S256 (OAuth 2.1 §4.1): the user is sent to the
 * authorization endpoint through `onAuthorizationUrl`, the redirect's `state` and `iss`
 * (RFC 9207, exact string comparison) are checked, and the code is exchanged for tokens.
 */
export async function authorizationCode(
  onAuthorizationUrl: AuthorizationUrlHandler | undefined,
  flow: {
    metadata: AuthorizationServerMetadata;
    client: StoredClient;
    resource: string;
    scope: string | undefined;
    context: Parameters<typeof requestTokens>[3];
  },
): Promise<StoredTokens> {
  const { metadata, client, resource, scope, context } = flow;
  const redirectUri = client.redirectUri;
  if (!onAuthorizationUrl || redirectUri === undefined)
    throw new AuthorizationError(
      'interaction-required',
      `${resource} needs a person to sign in at ${metadata.issuer}, but no onAuthorizationUrl and redirectUrl were given. Pass both (loopbackRedirect() from @mcp-fw/client/node does it at a terminal), or use clientCredentials().`,
    );
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    throw new AuthorizationError(
      'pkce-unsupported',
      `The authorization server ${metadata.issuer} does not list S256 in code_challenge_methods_supported; refused, since MCP requires PKCE. Enable PKCE S256 on it.`,
    );
  if (!metadata.authorization_endpoint)
    throw new AuthorizationError(
      'authorization-server-metadata',
      `The authorization server ${metadata.issuer} has no authorization_endpoint.`,
    );
  const pkce = await pkcePair();
  const state = randomString(16);
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (scope) url.searchParams.set('scope', scope);
  url.searchParams.set('resource', resource);
  const back = new URL(String(await onAuthorizationUrl(url)));
  const params = back.searchParams;
  if (params.get('state') !== state)
    throw new AuthorizationError(
      'state-mismatch',
      `The redirect to ${back.origin}${back.pathname} carried state ${JSON.stringify(params.get('state'))}, not the one sent; refused (a forged or replayed redirect?). Start the sign-in again.`,
    );
  // RFC 9207: an iss that is there must be the issuer, by simple string comparison.
  const iss = params.get('iss');
  if (iss !== null && iss !== metadata.issuer)
    throw new AuthorizationError(
      'iss-mismatch',
      `The redirect came back with iss ${JSON.stringify(iss)}, not the authorization server's issuer ${JSON.stringify(metadata.issuer)}; refused (RFC 9207): another server answered (a mix-up attack?).`,
    );
  if (iss === null && metadata.authorization_response_iss_parameter_supported === true)
    throw new AuthorizationError(
      'iss-mismatch',
      `The redirect came back without iss, though ${metadata.issuer} advertises authorization_response_iss_parameter_supported; refused (RFC 9207).`,
    );
  const code = params.get('code');
  if (params.get('error') !== null || !code)
    throw new AuthorizationError(
      'authorization-denied',
      `The authorization server ${metadata.issuer} did not authorize: ${params.get('error') ?? 'no code in the redirect'}${
        params.get('error_description') ? `: ${params.get('error_description')}` : ''
      }.`,
    );
  return requestTokens(
    metadata,
    client,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
      resource,
    },
    context,
  );
}
