import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { clientCredentials, connect, MemoryTokenStore, oauth } from '@mcp-fw/client';
import {
  authorizationServer,
  browse,
  type AuthorizationServer,
} from '../../auth/test/support/authorization-server.ts';
import { onFreePort } from '../../../test-support/ports.ts';
import { machineAuthorizationServer } from './support/machine-authorization-server.ts';

// Our client against a real authorization server (oidc-provider) guarding a real mcp-fw server
// (@mcp-fw/auth over HTTP): dynamic registration, authorization code with PKCE, the RFC 9207 iss
// oidc-provider sends, step-up, refresh, and the client credentials grant with each client
// authentication. The "browser" follows the authorization server's redirects headlessly.
// oidc-provider offers DPoP (ES256) while the notes server takes Bearer tokens only: the client
// must not bind its tokens there, or every call would be refused.

const REDIRECT = 'http://127.0.0.1:9/callback';

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list(_: object, ctx: Context) {
    const auth = authInfo(ctx);
    return `notes of ${auth.subject} for ${auth.clientId}`;
  }

  @Tool({
    description: 'Adds a note',
    input: z.object({ text: z.string() }),
    scopes: ['notes:write'],
  })
  add({ text }: { text: string }, ctx: Context) {
    const scopes = [...authInfo(ctx).scopes].filter((s) => s !== 'offline_access').sort();
    return `added ${text} (${scopes.join(' ')})`;
  }
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function notesServer(
  issuer: (resource: string) => Promise<{ issuer: string; jwksUri: string }>,
) {
  // The resource names its port, so the port is chosen before the server listens; a port taken
  // meanwhile is tried again, with an issuer for the new resource.
  const { handle, resource } = await onFreePort(async (port) => {
    const resource = `http://127.0.0.1:${port}/mcp`;
    const as = await issuer(resource);
    const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes] });
    const handle: HttpServerHandle = await serveHttp(server, {
      port,
      ...oauthResource({
        resource,
        authorizationServers: [as.issuer],
        scopesSupported: ['notes:read', 'notes:write'],
        challengeScopes: ['notes:read'],
        verifier: jwtVerifier({
          issuer: as.issuer,
          jwksUri: as.jwksUri,
          audience: resource,
          clockToleranceSec: 0,
        }),
      }),
    });
    return { handle, resource };
  });
  closers.push(() => handle.close());
  return resource;
}

function signIn(redirects: URL[]) {
  return {
    redirectUrl: REDIRECT,
    onAuthorizationUrl: async (url: URL) => {
      redirects.push(url);
      return `${REDIRECT}?${await browse(url, REDIRECT)}`;
    },
  };
}

describe('OAuth against oidc-provider', () => {
  it.each(['2026-07-28', '2025-11-25'])(
    'registers dynamically, signs in with PKCE, steps up on 403 and refreshes an expired token (%s)',
    async (protocolVersion) => {
      let as: AuthorizationServer | undefined;
      const resource = await notesServer(async (resource) => {
        as = await authorizationServer({
          resource,
          scopes: ['notes:read', 'notes:write'],
          client: { clientId: 'unused', redirectUri: REDIRECT },
          accessTokenTtl: 2,
        });
        closers.push(() => (as as AuthorizationServer).close());
        return as;
      });
      const redirects: URL[] = [];
      const store = new MemoryTokenStore();
      const client = await connect(resource, {
        protocolVersion,
        auth: oauth({ clientName: 'notes agent', store, ...signIn(redirects) }),
      });
      closers.push(() => client.close());

      const listed = await client.callTool('list', {});
      expect(listed.content[0]).toMatchObject({
        type: 'text',
        text: expect.stringMatching(/^notes of alice for /),
      });
      expect(redirects).toHaveLength(1);
      const first = redirects[0] as URL;
      expect(first.searchParams.get('code_challenge_method')).toBe('S256');
      expect(first.searchParams.get('resource')).toBe(resource);
      expect(first.searchParams.get('scope')?.split(' ')).toContain('notes:read');
      // Registered dynamically (no client id was given): the registration is kept per issuer.
      expect(await store.get(`client ${as?.issuer}`)).toMatchObject({
        clientId: expect.any(String),
      });

      // notes:write is missing: 403 insufficient_scope, a second sign-in with both scopes.
      const added = await client.callTool('add', { text: 'milk' });
      expect(added.content[0]).toMatchObject({ text: 'added milk (notes:read notes:write)' });
      expect(redirects).toHaveLength(2);
      expect(redirects[1]?.searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['notes:read', 'notes:write']),
      );

      // The token lives 2 s: the next call gets 401, and the refresh token renews it silently.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const again = await client.callTool('add', { text: 'eggs' });
      expect(again.content[0]).toMatchObject({ text: 'added eggs (notes:read notes:write)' });
      expect(redirects).toHaveLength(2);
    },
    30_000,
  );

  it.each(['basic', 'post', 'jwt'] as const)(
    'client credentials with %s client authentication reach the server with no person involved',
    async (kind) => {
      let machine: Awaited<ReturnType<typeof machineAuthorizationServer>> | undefined;
      const resource = await notesServer(async (resource) => {
        machine = await machineAuthorizationServer({
          resource,
          scopes: ['notes:read', 'notes:write'],
        });
        closers.push(() => (machine as NonNullable<typeof machine>).close());
        return machine;
      });
      const credentials = machine?.clients[kind];
      const client = await connect(resource, {
        auth: clientCredentials({
          clientId: credentials?.clientId,
          clientSecret: credentials?.clientSecret,
          privateKey: credentials?.privateKeyPem,
          // The server lists several methods; a secret goes in the Basic header unless pinned.
          ...(kind === 'post' && { tokenEndpointAuthMethod: 'client_secret_post' }),
        }),
      });
      closers.push(() => client.close());
      const listed = await client.callTool('list', {});
      expect(listed.content[0]).toMatchObject({
        text: `notes of ${credentials?.clientId} for ${credentials?.clientId}`,
      });
      expect(machine?.tokenRequests.map((r) => r.authentication)).toEqual([
        kind === 'basic' ? 'Basic' : 'body',
      ]);
    },
    30_000,
  );
});
