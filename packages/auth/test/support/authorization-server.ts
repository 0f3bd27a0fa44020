import { devAuthorizationServer, type DevAuthorizationServer } from '@mcp-fw/auth/dev';

export type AuthorizationServer = DevAuthorizationServer;

/**
 * oidc-provider on 127.0.0.1 (through `@mcp-fw/auth/dev`): JWT access tokens for `resource`
 * only, PKCE, refresh tokens; sign-in and consent approved as `alice` through its interaction API.
 */
export function authorizationServer(options: {
  resource: string;
  scopes: readonly string[];
  client: { clientId: string; redirectUri: string };
  accessTokenTtl?: number;
}): Promise<AuthorizationServer> {
  return devAuthorizationServer({
    resource: options.resource,
    scopes: options.scopes,
    clients: [{ clientId: options.client.clientId, redirectUris: [options.client.redirectUri] }],
    account: 'alice',
    accessTokenTtl: options.accessTokenTtl,
  });
}

/**
 * What a user's browser does with an authorization URL: follows the redirects (keeping cookies)
 * through login and consent until the authorization server sends it to `redirectUri`; returns
 * the parameters it arrives with there (`code`, `state`, `iss`).
 */
export async function browse(authorizationUrl: URL, redirectUri: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(redirectUri)) {
      const params = new URL(url).searchParams;
      if (!params.get('code'))
        throw new Error(
          `the authorization server refused: ${params.get('error')}: ${params.get('error_description')}`,
        );
      return params;
    }
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(
        `the authorization flow stopped at ${url} with ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
    await response.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects in the authorization flow');
}
