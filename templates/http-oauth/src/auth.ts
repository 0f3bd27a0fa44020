import type { McpFwServer } from '@mcp-fw/core';
import {
  declaredScopes,
  jwtVerifier,
  oauthResource,
  type OAuthResourceHttpOptions,
  type TokenVerifier,
} from '@mcp-fw/auth';

/** Where the server listens and the URL clients name it by. */
export interface ListenSettings {
  port: number;
  /** The canonical URL of the MCP endpoint: tokens must be issued for exactly this (RFC 8707). */
  resource: string;
}

/** The authorization server whose tokens are accepted. */
export interface IssuerSettings {
  issuer: string;
  jwksUri: string;
}

/** A setting that is missing or malformed; the message names the variable and the fix. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `PORT` (default 3000) and `MCP_RESOURCE_URL`. With `devAuth` the resource defaults to
 * `http://127.0.0.1:PORT/mcp`; without it, it must be set: in production it is the public URL
 * clients use (behind your TLS proxy), which this process cannot guess.
 */
export function listenSettings(env: Env, devAuth: boolean): ListenSettings {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SettingsError(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  if (devAuth && port === 0) {
    throw new SettingsError(
      'PORT=0 cannot be used with --dev-auth: tokens are issued for one URL, which must be known before the server starts; set PORT to a free port',
    );
  }
  const resource = env.MCP_RESOURCE_URL ?? (devAuth ? `http://127.0.0.1:${port}/mcp` : undefined);
  if (resource === undefined) {
    throw new SettingsError(
      'MCP_RESOURCE_URL is not set: set it to the URL clients use to reach this server, e.g. MCP_RESOURCE_URL=https://notes.example.com/mcp ' +
        '(or try it locally with npm run dev, which serves --dev-auth)',
    );
  }
  return { port, resource: httpUrl('MCP_RESOURCE_URL', resource) };
}

/**
 * The port of the development authorization server: `DEV_AUTH_PORT`, else the one after the
 * server's (3001 by default). Fixed, so its issuer URL is the same on every start and the
 * tokens and client registrations a client holds stay good.
 */
export function devAuthPort(env: Env, listen: ListenSettings): number {
  const port = Number(env.DEV_AUTH_PORT ?? listen.port + 1);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new SettingsError(
      `DEV_AUTH_PORT must be a port number (1-65535), got "${env.DEV_AUTH_PORT ?? port}"`,
    );
  return port;
}

/** `OAUTH_ISSUER` and `OAUTH_JWKS_URL`, both required: where tokens come from and their signing keys. */
export function issuerSettings(env: Env): IssuerSettings {
  const missing = (name: string, what: string) =>
    new SettingsError(
      `${name} is not set: set it to ${what} (or try it locally with npm run dev, which starts a development authorization server)`,
    );
  if (env.OAUTH_ISSUER === undefined)
    throw missing(
      'OAUTH_ISSUER',
      "your authorization server's issuer URL, e.g. OAUTH_ISSUER=https://auth.example.com",
    );
  if (env.OAUTH_JWKS_URL === undefined) {
    throw missing(
      'OAUTH_JWKS_URL',
      'the URL of its signing keys: the jwks_uri of its metadata (<issuer>/.well-known/oauth-authorization-server)',
    );
  }
  return {
    issuer: httpUrl('OAUTH_ISSUER', env.OAUTH_ISSUER),
    jwksUri: httpUrl('OAUTH_JWKS_URL', env.OAUTH_JWKS_URL),
  };
}

/**
 * The `serveHttp` / `createHttpHandler` options that make `server` an OAuth 2.1 protected
 * resource: its metadata at `/.well-known/oauth-protected-resource/mcp`, a 401 challenge for
 * requests without a valid token, a 403 for a token without a member's scopes. Tokens are JWTs
 * checked against the issuer's keys, unless a test passes its own `verifier`.
 */
export function protection(
  server: McpFwServer,
  listen: ListenSettings,
  issuer: IssuerSettings,
  verifier?: TokenVerifier,
): OAuthResourceHttpOptions {
  return oauthResource({
    resource: listen.resource,
    authorizationServers: [issuer.issuer],
    // Read from the scopes the tools and resources declare.
    scopesSupported: declaredScopes(server),
    // What clients ask for first; a 403 names notes:write when a tool needs it (step-up).
    challengeScopes: ['notes:read'],
    verifier:
      verifier ??
      jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, audience: listen.resource }),
  });
}

/**
 * The host names `serveHttp` accepts: loopback, and the host of the resource URL (the name a
 * TLS proxy in front of this server forwards). Anything else is refused (DNS rebinding).
 */
export function allowedHosts(listen: ListenSettings): string[] {
  return [...new Set(['localhost', '127.0.0.1', '[::1]', new URL(listen.resource).hostname])];
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SettingsError(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}
