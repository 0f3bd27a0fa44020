import { AuthorizationError } from './errors.js';
import { checkEndpoint } from './network.js';

/** Protected resource metadata (RFC 9728 §2), the fields the client uses. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly dpop_signing_alg_values_supported?: readonly string[];
}

/** Authorization server metadata (RFC 8414 §2 / OpenID Connect Discovery), the fields used. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly client_id_metadata_document_supported?: boolean;
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly dpop_signing_alg_values_supported?: readonly string[];
}

type Fetch = typeof fetch;

/**
 * The server's protected resource metadata: from the challenge's `resource_metadata` (which
 * must be on the server's own origin), else the path-based well-known URL, then the root one
 * (RFC 9728 §3.1). Its `resource` must name this server (§3.3): the same origin, and a path
 * the server's URL is at or under. Undefined when the server publishes none (every well-known
 * URL answers 404 and the challenge names none): a 2025-03-26 server, see `legacyResource`.
 */
export async function discoverResource(
  server: URL,
  fromChallenge: URL | undefined,
  fetchFn: Fetch,
): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (fromChallenge) {
    if (fromChallenge.origin !== server.origin)
      throw new AuthorizationError(
        'bad-challenge',
        `The server ${server.origin} pointed its WWW-Authenticate resource_metadata at another origin (${fromChallenge.href}); refused, since that document would choose where the client signs in. Serve the metadata on the server's own origin.`,
      );
    candidates.push(fromChallenge);
  } else {
    const path = server.pathname === '/' ? '' : server.pathname.replace(/\/$/, '');
    if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server));
    candidates.push(new URL('/.well-known/oauth-protected-resource', server));
  }
  const tried: string[] = [];
  let absent = 0;
  for (const url of candidates) {
    const response = await getJson(url, fetchFn);
    if (response.status === 404) absent++;
    if (response.status !== 200) {
      tried.push(`${url.href} (HTTP ${response.status})`);
      continue;
    }
    const metadata = response.body as Partial<ResourceMetadata> | undefined;
    if (typeof metadata?.resource !== 'string')
      throw new AuthorizationError(
        'resource-metadata',
        `The protected resource metadata at ${url.href} has no "resource" string (RFC 9728 §2).`,
      );
    if (!namesServer(metadata.resource, server))
      throw new AuthorizationError(
        'resource-mismatch',
        `The protected resource metadata at ${url.href} is for ${JSON.stringify(metadata.resource)}, not for ${server.href}; refused (RFC 9728 §3.3), since a token obtained for it could be replayed. Fix the server's "resource".`,
      );
    return metadata as ResourceMetadata;
  }
  if (!fromChallenge && absent === candidates.length) return undefined;
  throw new AuthorizationError(
    'resource-metadata',
    `${server.href} asked for authorization but publishes no protected resource metadata: tried ${tried.join(', ')}. The server must serve RFC 9728 metadata (and name it in WWW-Authenticate resource_metadata).`,
  );
}

/** Whether `resource` identifies `server`: same origin, and the server's path at or under it. */
export function namesServer(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin || url.search || url.hash) return false;
  const base = url.pathname.replace(/\/$/, '');
  return server.pathname === base || server.pathname.startsWith(`${base}/`) || base === '';
}

/**
 * The metadata of the authorization server `issuer` (RFC 8414 §3.1, then OpenID Connect
 * Discovery): for an issuer with a path, the path-inserted well-known URLs first, then the
 * path-appended OpenID one. Its `issuer` must be exactly the URL it was fetched for (§3.3).
 * `legacyDefaults`: the issuer is the origin of a 2025-03-26 server (no protected resource
 * metadata), whose metadata may spell it with a trailing slash, and these default endpoints
 * stand in when every well-known URL answers 404.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  server: URL,
  fetchFn: Fetch,
  allowPrivateNetwork: boolean,
  legacyDefaults?: AuthorizationServerMetadata,
): Promise<AuthorizationServerMetadata> {
  let base: URL;
  try {
    base = new URL(issuer);
  } catch {
    throw new AuthorizationError(
      'authorization-server-metadata',
      `The protected resource metadata of ${server.href} names the authorization server ${JSON.stringify(issuer)}, which is not a URL.`,
    );
  }
  checkEndpoint(base, 'authorization server', server, allowPrivateNetwork);
  const path = base.pathname.replace(/\/$/, '');
  const candidates = path
    ? [
        `/.well-known/oauth-authorization-server${path}`,
        `/.well-known/openid-configuration${path}`,
        `${path}/.well-known/openid-configuration`,
      ]
    : ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  const tried: string[] = [];
  let absent = 0;
  for (const candidate of candidates) {
    const url = new URL(candidate, base.origin);
    const response = await getJson(url, fetchFn);
    if (response.status !== 200) {
      if (response.status === 404) absent++;
      tried.push(`${url.href} (HTTP ${response.status})`);
      continue;
    }
    const metadata = response.body as Partial<AuthorizationServerMetadata> | undefined;
    if (metadata?.issuer !== issuer && !(legacyDefaults && metadata?.issuer === `${issuer}/`))
      throw new AuthorizationError(
        'issuer-mismatch',
        `The authorization server metadata at ${url.href} claims issuer ${JSON.stringify(metadata?.issuer)}, not ${JSON.stringify(issuer)}; refused (RFC 8414 §3.3): its endpoints could belong to someone else. Fix the authorization server's "issuer" or the resource's authorization_servers.`,
      );
    if (typeof metadata.token_endpoint !== 'string')
      throw new AuthorizationError(
        'authorization-server-metadata',
        `The authorization server metadata at ${url.href} has no token_endpoint.`,
      );
    for (const key of [
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
    ] as const) {
      const value = metadata[key];
      if (value === undefined) continue;
      let endpoint: URL;
      try {
        endpoint = new URL(value);
      } catch {
        throw new AuthorizationError(
          'authorization-server-metadata',
          `The authorization server metadata at ${url.href} has a ${key} that is not a URL: ${JSON.stringify(value)}.`,
        );
      }
      checkEndpoint(
        endpoint,
        `${key.replace(/_/g, ' ')} of ${issuer}`,
        server,
        allowPrivateNetwork,
      );
    }
    return metadata as AuthorizationServerMetadata;
  }
  if (legacyDefaults && absent === candidates.length) return legacyDefaults;
  throw new AuthorizationError(
    'authorization-server-metadata',
    `The authorization server ${issuer} publishes no metadata: tried ${tried.join(', ')}.`,
  );
}

async function getJson(url: URL, fetchFn: Fetch): Promise<{ status: number; body?: unknown }> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: { accept: 'application/json', 'mcp-protocol-version': '2025-11-25' },
      redirect: 'error',
    });
  } catch (error) {
    return { status: 0, body: String(error) };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status };
  }
  try {
    return { status: 200, body: await response.json() };
  } catch {
    return { status: 422 };
  }
}
