import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import { checkRedirectUris, ClientError, type KnownClient } from './clients.js';
import { json, oauthError, type ServerContext } from './context.js';
import { randomToken, sha256 } from './crypto.js';

const MAX_BODY = 16 * 1024;
const CLIENT_MS = 180 * 24 * 3600_000;

/** POST `/register` (RFC 7591): a public client (PKCE) or one with a secret, its redirect URIs checked. */
export async function register(ctx: ServerContext, req: HttpRequestView): Promise<HttpReply> {
  if (req.method !== 'POST') return oauthError(405, 'invalid_request', 'registration takes POST');
  const body = await req.text(MAX_BODY);
  if (body === undefined)
    return oauthError(
      413,
      'invalid_client_metadata',
      `client metadata is limited to ${MAX_BODY} bytes`,
    );
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(body) as Record<string, unknown>;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
      throw new Error();
  } catch {
    return oauthError(
      400,
      'invalid_client_metadata',
      'the body must be a JSON object of client metadata',
    );
  }
  let redirectUris: string[];
  try {
    redirectUris = checkRedirectUris(metadata.redirect_uris, 'the client');
  } catch (error) {
    if (error instanceof ClientError) return oauthError(400, error.error, error.message);
    throw error;
  }
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post')
    return oauthError(
      400,
      'invalid_client_metadata',
      `token_endpoint_auth_method ${String(method)} is not supported; use none (PKCE), client_secret_basic or client_secret_post`,
    );
  const clientId = `dyn_${randomToken()}`;
  const secret = method === 'none' ? undefined : randomToken();
  const client: KnownClient = {
    clientId,
    redirectUris,
    clientName:
      typeof metadata.client_name === 'string' ? metadata.client_name.slice(0, 100) : undefined,
    authMethod: method,
    secretHash: secret ? await sha256(secret) : undefined,
    kind: 'dynamic',
  };
  await ctx.store.set(`client:${clientId}`, JSON.stringify(client), CLIENT_MS);
  return json(201, {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(client.clientName ? { client_name: client.clientName } : {}),
  });
}
