import type { JWK } from 'jose';
import { fetchJson, SafeFetchError, type SafeFetchOptions } from './safe-fetch.js';
import type { AuthorizationStore } from './store.js';

/** A client the authorization server knows, however it came to know it. */
export interface KnownClient {
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  readonly clientName?: string;
  /** How the client authenticates at the token endpoint. */
  readonly authMethod: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** SHA-256 (base64url) of its secret, for confidential clients. */
  readonly secretHash?: string;
  /** The grants it may use (default: authorization code and refresh token). */
  readonly grantTypes?: readonly GrantType[];
  /** The most it may be granted by a machine grant (client credentials, ID-JAG). */
  readonly scopes?: readonly string[];
  /** For `private_key_jwt`: its public keys, or where they are published. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  readonly jwksUri?: string;
  /** `preregistered`, `metadata-document` (CIMD) or `dynamic` (RFC 7591). */
  readonly kind: 'preregistered' | 'metadata-document' | 'dynamic';
  /** For a metadata-document client: the host its client_id URL proved it controls. */
  readonly verifiedDomain?: string;
}

/** The client-credentials grant (RFC 6749 §4.4). */
export const CLIENT_CREDENTIALS = 'client_credentials';
/** The JWT bearer grant (RFC 7523 §2.1), which carries an ID-JAG. */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A grant a pre-registered client may use. */
export type GrantType =
  | 'authorization_code'
  | 'refresh_token'
  | 'client_credentials'
  | 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * A client known from the start (the `clients` option of `authorizationServer`): a person's
 * app (authorization code, public with PKCE or confidential), or a machine client of the
 * `oauth-client-credentials` and enterprise-managed authorization (ID-JAG) extensions.
 *
 * @example
 * ```ts
 * import type { PreRegisteredClient } from '@mcp-fw/auth/server';
 * const reporting: PreRegisteredClient = {
 *   clientId: 'reporting',
 *   clientSecret: process.env.REPORTING_SECRET, // or jwksUri / jwks for private_key_jwt
 *   grantTypes: ['client_credentials'],
 *   scopes: ['notes:read'],
 * };
 * ```
 */
export interface PreRegisteredClient {
  readonly clientId: string;
  /** Where a person's sign-in returns (required for `authorization_code`; none for machines). */
  readonly redirectUris?: readonly string[];
  /** Shown on the consent page. */
  readonly name?: string;
  /** A confidential client's secret (`client_secret_basic` or `client_secret_post`); at least 32 characters for machine grants. */
  readonly clientSecret?: string;
  /** For `private_key_jwt` (RFC 7523 §2.2): the client's public keys (a JWK Set). */
  readonly jwks?: { readonly keys: readonly JWK[] };
  /** For `private_key_jwt`: where the client publishes its JWK Set (fetched, cached). */
  readonly jwksUri?: string;
  /**
   * The grants it may use (default `authorization_code` and `refresh_token`). Machine clients
   * list `client_credentials` and/or `urn:ietf:params:oauth:grant-type:jwt-bearer` (ID-JAG);
   * both need a secret or keys.
   */
  readonly grantTypes?: readonly GrantType[];
  /** The most a machine grant may give it (default: every scope of the server). */
  readonly scopes?: readonly string[];
}

/** A client's request refused: `error` is the OAuth error code, the message names cause and fix. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

/** How `authorizationServer` fetches Client ID Metadata Documents (its `clientMetadataDocuments` option). */
export interface ClientMetadataDocumentOptions {
  /** Allow documents on loopback and private addresses (default false). */
  readonly allowPrivateAddresses?: boolean;
  /** Largest document in bytes (default 5120, as the CIMD draft suggests). */
  readonly maxBytes?: number;
  /** Time allowed for one fetch, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** How long a fetched document is trusted before it is fetched again, in ms (default 5 minutes). */
  readonly cacheMs?: number;
  /** Extra trusted CA certificates (PEM) for the fetch. */
  readonly ca?: string;
}

/** True when `uri` is an http loopback redirect, whose port a native client picks per run (RFC 8252 §7.3). */
function loopback(uri: URL): boolean {
  return uri.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(uri.hostname);
}

/** The registered redirect URI `requested` matches: exactly, or a loopback one on any port. */
export function matchRedirect(client: KnownClient, requested: string): boolean {
  if (client.redirectUris.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (!loopback(asked) || asked.hash || asked.username || asked.password) return false;
  return client.redirectUris.some((r) => {
    const known = new URL(r);
    return (
      loopback(known) &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    );
  });
}

/** Checks redirect URIs a client asks to register: absolute, no fragment, https or loopback or a private scheme. */
export function checkRedirectUris(value: unknown, who: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((u) => typeof u === 'string'))
    throw new ClientError(
      'invalid_redirect_uri',
      `${who} must list its redirect_uris (a non-empty array of URLs)`,
    );
  for (const uri of value as string[]) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new ClientError('invalid_redirect_uri', `${who}: redirect URI ${uri} is not a URL`);
    }
    if (url.hash)
      throw new ClientError(
        'invalid_redirect_uri',
        `${who}: redirect URI ${uri} must not carry a fragment`,
      );
    if (url.protocol === 'http:' && !loopback(url))
      throw new ClientError(
        'invalid_redirect_uri',
        `${who}: redirect URI ${uri} must be https (plain http only on 127.0.0.1, [::1] or localhost)`,
      );
    if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol))
      throw new ClientError('invalid_redirect_uri', `${who}: redirect URI ${uri} is not allowed`);
  }
  return value as string[];
}

/** True when `clientId` names a Client ID Metadata Document: an https URL with a path. */
export function isMetadataDocumentId(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * Fetches and checks a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document):
 * its `client_id` must equal its URL, it must list redirect URIs, and it may not claim a
 * shared secret (a document anyone can read holds none). Cached for `cacheMs`.
 */
export async function metadataDocumentClient(
  clientId: string,
  store: AuthorizationStore,
  options: ClientMetadataDocumentOptions,
  beforeFetch?: () => Promise<void>,
): Promise<KnownClient> {
  const cacheKey = `cimd:${clientId}`;
  const cached = await store.get(cacheKey);
  if (cached) return JSON.parse(cached) as KnownClient;
  await beforeFetch?.();
  const fetchOptions: SafeFetchOptions = {
    allowPrivateAddresses: options.allowPrivateAddresses,
    maxBytes: options.maxBytes ?? 5120,
    timeoutMs: options.timeoutMs ?? 5000,
    ca: options.ca,
  };
  let document: unknown;
  try {
    document = await fetchJson(new URL(clientId), fetchOptions);
  } catch (error) {
    throw new ClientError(
      'invalid_client',
      `the client metadata document ${clientId} could not be used: ${error instanceof SafeFetchError ? error.message : String(error)}`,
    );
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new ClientError(
      'invalid_client',
      `the client metadata document ${clientId} is not a JSON object`,
    );
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== clientId)
    throw new ClientError(
      'invalid_client',
      `the client metadata document at ${clientId} names client_id ${JSON.stringify(doc.client_id)}; it must name its own URL`,
    );
  if ('client_secret' in doc || 'client_secret_expires_at' in doc)
    throw new ClientError(
      'invalid_client',
      `the client metadata document ${clientId} carries a client_secret; a public document cannot hold a secret`,
    );
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new ClientError(
      'invalid_client',
      `the client metadata document ${clientId} asks for token_endpoint_auth_method ${String(method)}; this server accepts only "none" (PKCE) for such clients`,
    );
  const client: KnownClient = {
    clientId,
    redirectUris: checkRedirectUris(doc.redirect_uris, `the client metadata document ${clientId}`),
    clientName: typeof doc.client_name === 'string' ? doc.client_name.slice(0, 100) : undefined,
    authMethod: 'none',
    kind: 'metadata-document',
    verifiedDomain: new URL(clientId).host,
  };
  await store.set(cacheKey, JSON.stringify(client), options.cacheMs ?? 300_000);
  return client;
}
