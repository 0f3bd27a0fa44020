import type { AuthorizationServerMetadata } from './discovery.js';
import { AuthorizationError } from './errors.js';
import { isLoopback } from './network.js';
import { clientKey, type StoredClient, type TokenStore } from './token-store.js';

/** How the client identifies itself to authorization servers. */
export interface ClientIdentity {
  /** A pre-registered client id: used as is, with no registration. */
  readonly clientId?: string;
  /** The pre-registered client's secret, if it is confidential. */
  readonly clientSecret?: string;
  /** The pre-registered client's token endpoint authentication (default: from the secret and the server's list). */
  readonly tokenEndpointAuthMethod?: string;
  /**
   * An https URL of this client's Client ID Metadata Document: used as the `client_id` where the
   * authorization server says `client_id_metadata_document_supported`, before registering.
   */
  readonly clientMetadataUrl?: string;
  /** The name shown on the consent screen when registering dynamically (default `mcp-fw client`). */
  readonly clientName?: string;
  /** More client metadata for dynamic registration (RFC 7591 §2). */
  readonly clientMetadata?: Readonly<Record<string, unknown>>;
}

/**
 * The client to present to `metadata.issuer`: pre-registered, else (kept per issuer) one
 * registered before, else a Client ID Metadata Document URL where the server accepts those,
 * else one registered now (RFC 7591). A registration is never reused with another issuer.
 */
export async function identifyClient(
  metadata: AuthorizationServerMetadata,
  identity: ClientIdentity,
  context: {
    store: TokenStore;
    redirectUri?: string;
    grantTypes: readonly string[];
    fetch: typeof fetch;
  },
): Promise<StoredClient> {
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (identity.clientId !== undefined)
    return {
      clientId: identity.clientId,
      clientSecret: identity.clientSecret,
      tokenEndpointAuthMethod:
        identity.tokenEndpointAuthMethod ?? chooseMethod(identity.clientSecret, supported),
      redirectUri: context.redirectUri,
    };
  const key = clientKey(metadata.issuer);
  const known = (await context.store.get(key)) as StoredClient | undefined;
  if (known && known.redirectUri === context.redirectUri) return known;
  if (identity.clientMetadataUrl && metadata.client_id_metadata_document_supported === true)
    return {
      clientId: identity.clientMetadataUrl,
      tokenEndpointAuthMethod: 'none',
      redirectUri: context.redirectUri,
    };
  if (!metadata.registration_endpoint)
    throw new AuthorizationError(
      'no-client',
      `The authorization server ${metadata.issuer} offers no dynamic registration${
        metadata.client_id_metadata_document_supported
          ? ' (it accepts Client ID Metadata Documents: pass clientMetadataUrl)'
          : ''
      }; pass the clientId (and clientSecret) registered with it.`,
    );
  const registered = await register(metadata, identity, context);
  await context.store.set(key, registered);
  return registered;
}

async function register(
  metadata: AuthorizationServerMetadata,
  identity: ClientIdentity,
  context: { redirectUri?: string; grantTypes: readonly string[]; fetch: typeof fetch },
): Promise<StoredClient> {
  const endpoint = metadata.registration_endpoint as string;
  const redirect = context.redirectUri ? new URL(context.redirectUri) : undefined;
  const request = {
    client_name: identity.clientName ?? 'mcp-fw client',
    grant_types: context.grantTypes,
    response_types: context.redirectUri ? ['code'] : [],
    token_endpoint_auth_method: 'none',
    application_type: applicationType(redirect),
    ...(context.redirectUri && { redirect_uris: [context.redirectUri] }),
    ...identity.clientMetadata,
  };
  let response: Response;
  try {
    response = await context.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      redirect: 'error',
    });
  } catch (error) {
    throw new AuthorizationError('registration', `Cannot reach ${endpoint}: ${String(error)}`, {
      cause: error,
    });
  }
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
  } catch {}
  if (!response.ok || typeof json?.client_id !== 'string')
    throw new AuthorizationError(
      'registration',
      `Dynamic client registration at ${endpoint} failed (HTTP ${response.status}): ${text.slice(0, 300)}. Register the client by hand and pass clientId.`,
      { status: response.status },
    );
  const secret = typeof json.client_secret === 'string' ? json.client_secret : undefined;
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return {
    clientId: json.client_id,
    clientSecret: secret,
    tokenEndpointAuthMethod:
      typeof json.token_endpoint_auth_method === 'string'
        ? json.token_endpoint_auth_method
        : chooseMethod(secret, supported),
    redirectUri: context.redirectUri,
  };
}

/**
 * SEP-837: a client redirected to the user's machine (loopback, or an app's own scheme) is
 * `native`; one redirected to an https site, or with no redirect at all (a service), is `web`.
 */
function applicationType(redirect: URL | undefined): 'native' | 'web' {
  if (!redirect) return 'web';
  return redirect.protocol === 'https:' && !isLoopback(redirect) ? 'web' : 'native';
}

/** A secret is sent the way the server prefers (basic, else post); none when it takes neither. */
function chooseMethod(secret: string | undefined, supported: readonly string[]): string {
  if (secret === undefined) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}
