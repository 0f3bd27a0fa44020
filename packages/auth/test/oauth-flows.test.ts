import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as Unauthorized1 } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError as Unauthorized2,
} from '@modelcontextprotocol/client';
import { createServer, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import {
  authorizationServer,
  browse,
  type AuthorizationServer,
} from './support/authorization-server.ts';
import { MemoryOAuthClient } from './support/oauth-client.ts';
import { onFreePort } from '../../../test-support/ports.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
const ran: string[] = [];

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list(_: object, ctx: Context) {
    ran.push('list');
    const auth = authInfo(ctx);
    return `notes of ${auth.subject} for ${auth.clientId}`;
  }

  @Tool({
    description: 'Adds a note',
    input: z.object({ text: z.string() }),
    scopes: ['notes:write'],
  })
  add({ text }: { text: string }, ctx: Context) {
    ran.push('add');
    return `added ${text} (${[...authInfo(ctx).scopes]
      .filter((s) => s !== 'offline_access')
      .sort()
      .join(' ')})`;
  }
}

/** One MCP client flavour: how it connects with an auth provider, and its UnauthorizedError. */
interface Flavour {
  connect(
    url: string,
    oauth: MemoryOAuthClient,
  ): Promise<{
    transport: Transport1 | Transport2;
    client: { callTool(p: any): Promise<any>; close(): Promise<void> };
  }>;
  unauthorized: Function;
  version?: string;
  /**
   * SDK 1.x answers a 403 insufficient_scope by refreshing first when it holds a refresh token,
   * and a refresh cannot widen a grant (RFC 6749 §6), so it gives up ("403 after trying
   * upscoping"). Without a refresh token it re-authorizes with the challenge's scope.
   */
  stepUpWithoutRefreshToken?: boolean;
}

const FLAVOURS: [string, Flavour][] = [
  [
    'SDK 1.x (2025-11-25)',
    {
      unauthorized: Unauthorized1,
      stepUpWithoutRefreshToken: true,
      async connect(url, oauth) {
        const transport = new Transport1(new URL(url), { authProvider: oauth });
        const client = new Client1({ name: 'flow', version: '1.0.0' });
        await client.connect(transport);
        return { transport, client };
      },
    },
  ],
  [
    'client 2.x (2025-11-25)',
    {
      unauthorized: Unauthorized2,
      version: '2025-11-25',
      async connect(url, oauth) {
        const transport = new Transport2(new URL(url), { authProvider: oauth as any });
        const client = new Client2(
          { name: 'flow', version: '1.0.0' },
          { supportedProtocolVersions: ['2025-11-25'] },
        );
        await client.connect(transport);
        return { transport, client };
      },
    },
  ],
  [
    'client 2.x (2026-07-28)',
    {
      unauthorized: Unauthorized2,
      version: '2026-07-28',
      async connect(url, oauth) {
        const transport = new Transport2(new URL(url), { authProvider: oauth as any });
        const client = new Client2(
          { name: 'flow', version: '1.0.0' },
          { versionNegotiation: { mode: 'auto' } },
        );
        await client.connect(transport);
        return { transport, client };
      },
    },
  ],
];

let as: AuthorizationServer | undefined;
let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  await as?.close();
  handle = as = undefined;
});

/** oidc-provider and the protected notes server, tokens living `ttl` seconds. */
async function setup(ttl = 600): Promise<{ url: string; resource: string }> {
  // The resource names its port, so the port is chosen before the server listens; a port taken
  // meanwhile is tried again, with a new authorization server for the new resource.
  const resource = await onFreePort(async (port) => {
    const resource = `http://127.0.0.1:${port}/mcp`;
    const issuer = await authorizationServer({
      resource,
      scopes: ['notes:read', 'notes:write'],
      client: { clientId: 'notes-app', redirectUri: REDIRECT },
      accessTokenTtl: ttl,
    });
    const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes] });
    try {
      handle = await serveHttp(server, {
        port,
        ...oauthResource({
          resource,
          authorizationServers: [issuer.issuer],
          scopesSupported: ['notes:read', 'notes:write'],
          challengeScopes: ['notes:read'],
          verifier: jwtVerifier({
            issuer: issuer.issuer,
            jwksUri: `${issuer.issuer}/jwks`,
            audience: resource,
            clockToleranceSec: 0,
          }),
        }),
      });
    } catch (error) {
      await issuer.close();
      throw error;
    }
    as = issuer;
    return resource;
  });
  return { url: handle!.url, resource };
}

/**
 * Hands the callback to the transport: SDK 1.x takes the code; client 2.x the whole callback,
 * whose `iss` it checks against the authorization server (RFC 9207).
 */
function finish(transport: Transport1 | Transport2, callback: URLSearchParams): Promise<void> {
  return transport instanceof Transport1
    ? transport.finishAuth(callback.get('code')!)
    : transport.finishAuth(callback);
}

/** Connects, going through the authorization (a browser visit) when the client is sent there. */
async function authorizedConnect(flavour: Flavour, url: string, oauth: MemoryOAuthClient) {
  try {
    return await flavour.connect(url, oauth);
  } catch (error) {
    expect(error).toBeInstanceOf(flavour.unauthorized);
    const pending = await flavour.connect(url, oauth).catch((e) => e);
    expect(pending).toBeInstanceOf(flavour.unauthorized);
    // Connecting twice sent the client to authorize twice: finish the last one.
    const transport =
      flavour.unauthorized === Unauthorized1
        ? new Transport1(new URL(url), { authProvider: oauth })
        : new Transport2(new URL(url), { authProvider: oauth as any });
    await finish(transport, await browse(oauth.lastAuthorizationUrl!, REDIRECT));
    return flavour.connect(url, oauth);
  }
}

describe.each(FLAVOURS)('OAuth with the official %s against oidc-provider', (_name, flavour) => {
  it('401 → metadata discovery → authorization code + PKCE with the resource → token → the call succeeds', async () => {
    const { url, resource } = await setup();
    const oauth = new MemoryOAuthClient('notes-app', REDIRECT);
    const { client } = await authorizedConnect(flavour, url, oauth);
    try {
      const authorization = oauth.authorizations.at(-1)!;
      expect(authorization.origin).toBe(as!.issuer);
      expect(authorization.searchParams.get('resource')).toBe(resource);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      // Least privilege first: the 401 challenge's scope (client 2.x adds offline_access to get a refresh token).
      expect(
        authorization.searchParams
          .get('scope')!
          .split(' ')
          .filter((s) => s !== 'offline_access'),
      ).toEqual(['notes:read']);
      expect((await client.callTool({ name: 'list', arguments: {} })).content).toEqual([
        { type: 'text', text: 'notes of alice for notes-app' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('insufficient scope → 403 → re-authorization with the wider scope → the call succeeds', async () => {
    const { url } = await setup();
    const oauth = new MemoryOAuthClient('notes-app', REDIRECT, !flavour.stepUpWithoutRefreshToken);
    const { client, transport } = await authorizedConnect(flavour, url, oauth);
    try {
      expect(oauth.tokenSet?.scope?.split(' ')).not.toContain('notes:write');
      const before = ran.filter((r) => r === 'add').length;
      const first = await client
        .callTool({ name: 'add', arguments: { text: 'milk' } })
        .catch((e) => e);
      expect(first, String(first)).toBeInstanceOf(flavour.unauthorized);
      expect(ran.filter((r) => r === 'add').length).toBe(before);
      const stepUp = oauth.authorizations.at(-1)!;
      expect(stepUp.searchParams.get('scope')!.split(' ')).toEqual(
        expect.arrayContaining(['notes:read', 'notes:write']),
      );
      await finish(transport, await browse(stepUp, REDIRECT));
      expect((await client.callTool({ name: 'add', arguments: { text: 'milk' } })).content).toEqual(
        [{ type: 'text', text: 'added milk (notes:read notes:write)' }],
      );
    } finally {
      await client.close();
    }
  });

  it('expired token → refresh → the call succeeds', async () => {
    const { url } = await setup(2);
    const oauth = new MemoryOAuthClient('notes-app', REDIRECT);
    const { client } = await authorizedConnect(flavour, url, oauth);
    try {
      const firstToken = oauth.tokenSet!.access_token;
      expect(oauth.tokenSet!.refresh_token).toBeTruthy();
      await new Promise((r) => setTimeout(r, 2_300));
      expect((await client.callTool({ name: 'list', arguments: {} })).content).toEqual([
        { type: 'text', text: 'notes of alice for notes-app' },
      ]);
      expect(oauth.tokenSet!.access_token).not.toBe(firstToken);
    } finally {
      await client.close();
    }
  });
});
