import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { createServer, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { authorizationServer, browse, type AuthorizationServer } from './support/authorization-server.ts';
import { MemoryOAuthClient } from './support/oauth-client.ts';
import { freePort } from './support/protected.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list(_: object, ctx: Context) {
    const auth = authInfo(ctx);
    return `notes of ${auth.subject} for ${auth.clientId}`;
  }
}

let as: AuthorizationServer;
let handle: HttpServerHandle;

beforeAll(async () => {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  as = await authorizationServer({ resource, scopes: ['notes:read', 'notes:write'], client: { clientId: 'notes-app', redirectUri: REDIRECT } });
  const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes] });
  handle = await serveHttp(server, {
    port,
    ...oauthResource({
      resource,
      authorizationServers: [as.issuer],
      scopesSupported: ['notes:read', 'notes:write'],
      verifier: jwtVerifier({ issuer: as.issuer, jwksUri: `${as.issuer}/jwks`, audience: resource }),
    }),
  });
});
afterAll(async () => {
  await handle?.close();
  await as?.close();
});

describe('official SDK 1.x OAuth flow against oidc-provider', () => {
  it('401 → metadata discovery → authorization code + PKCE with the resource → token → the call succeeds', async () => {
    const oauth = new MemoryOAuthClient('notes-app', REDIRECT);
    const first = new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: oauth });
    await expect(new Client({ name: 'flow', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = oauth.lastAuthorizationUrl!;
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get('resource')).toBe(`http://127.0.0.1:${handle.port}/mcp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('notes:read notes:write');
    await first.finishAuth(await browse(url, REDIRECT));
    expect(oauth.tokenSet?.access_token).toMatch(/^ey/);

    const client = new Client({ name: 'flow', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: oauth }));
    try {
      expect((await client.callTool({ name: 'list', arguments: {} })).content).toEqual([{ type: 'text', text: 'notes of alice for notes-app' }]);
    } finally {
      await client.close();
    }
  });
});
