import type { McpFwServer } from '@mcp-fw/core';
import { declaredScopes, type OAuthResourceHttpOptions } from '@mcp-fw/auth';
import {
  authorizationServer,
  type AuthorizationServer,
  type UpstreamProvider,
} from '@mcp-fw/auth/server';

/** Where the server listens and the URL clients name it by. */
export interface ListenSettings {
  port: number;
  /** The canonical URL of the MCP endpoint: tokens are issued for exactly this (RFC 8707). */
  resource: string;
}

/** A setting that is missing or malformed; the message names the variable and the fix. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** The environment, as the settings read it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * `PORT` (default 3000) and `MCP_RESOURCE_URL`. With `dev` the resource defaults to
 * `http://127.0.0.1:PORT/mcp`; without it, it must be set: in production it is the public URL
 * clients use (behind your TLS proxy), and its origin is the authorization server's issuer,
 * whose `/oauth/callback` is registered at the identity provider.
 */
export function listenSettings(env: Env, dev: boolean): ListenSettings {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new SettingsError(`PORT must be a port number (1-65535), got "${env.PORT}"`);
  const resource = env.MCP_RESOURCE_URL ?? (dev ? `http://127.0.0.1:${port}/mcp` : undefined);
  if (resource === undefined)
    throw new SettingsError(
      'MCP_RESOURCE_URL is not set: set it to the URL clients use to reach this server, e.g. MCP_RESOURCE_URL=https://notes.example.com/mcp ' +
        '(or try it locally with npm run dev, which signs people in at a development identity provider)',
    );
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new SettingsError(`MCP_RESOURCE_URL must be an http(s) URL, got "${resource}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SettingsError(`MCP_RESOURCE_URL must be an http(s) URL, got "${resource}"`);
  return { port, resource };
}

/** The variable `name` of `env`, or a {@link SettingsError} saying what to set it to. */
export function required(env: Env, name: string, what: string): string {
  const value = env[name];
  if (value === undefined || value === '')
    throw new SettingsError(
      `${name} is not set: set it to ${what} (.env.example lists every variable; npm run dev needs none)`,
    );
  return value;
}

/**
 * This server's own OAuth 2.1 authorization server, on its origin, where people sign in at
 * `upstream`: MCP clients find it in the protected resource metadata, identify themselves with a
 * Client ID Metadata Document (or register), and get tokens for this server only.
 * `OAUTH_SECRET` (32+ characters) seals the upstream tokens it keeps; without it a random one
 * per process is used, so sign-ins do not survive a restart.
 */
export function ownAuthorizationServer(
  server: McpFwServer,
  listen: ListenSettings,
  upstream: UpstreamProvider,
  env: Env,
): Promise<AuthorizationServer> {
  return authorizationServer({
    resource: listen.resource,
    // Read from the scopes the tools and resources declare.
    scopes: declaredScopes(server),
    upstream,
    secret: env.OAUTH_SECRET || undefined,
  });
}

/**
 * The `serveHttp` options: the authorization server's endpoints beside the MCP endpoint, its
 * metadata, a 401 challenge for requests without a valid token, a 403 naming the scope a member
 * needs (clients step up from `notes:read` to `notes:write`).
 */
export function protection(server: McpFwServer, as: AuthorizationServer): OAuthResourceHttpOptions {
  return as.protect({
    scopesSupported: declaredScopes(server),
    // What clients ask for first.
    challengeScopes: ['notes:read'],
  });
}

/**
 * The host names `serveHttp` accepts: loopback, and the host of the resource URL (the name a
 * TLS proxy in front of this server forwards). Anything else is refused (DNS rebinding).
 */
export function allowedHosts(listen: ListenSettings): string[] {
  return [...new Set(['localhost', '127.0.0.1', '[::1]', new URL(listen.resource).hostname])];
}
