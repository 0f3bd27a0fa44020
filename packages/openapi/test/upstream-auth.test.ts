import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { serveHttp } from '@mcp-fw/core/node';
import { connectTestClient } from '@mcp-fw/core/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { onFreePort } from '../../../test-support/ports.ts';
import { machineAuthorizationServer } from '../../client/test/support/machine-authorization-server.ts';
import { fromOpenAPI, OpenAPIError, type FromOpenAPIOptions } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

// Upstream credentials beyond static ones, against real servers on loopback: OAuth 2 client
// credentials from oidc-provider's token endpoint (the upstream verifies the JWT with the
// issuer's keys), and the MCP caller's token forwarded through @mcp-fw/auth's oauthResource.
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Guarded', version: '1.0.0' },
  paths: {
    '/whoami': {
      get: {
        operationId: 'whoami',
        responses: {
          '200': {
            description: 'who',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
};

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** An upstream that echoes the Authorization header, refusing the tokens in `revoked` with 401. */
async function echoUpstream(revoked = new Set<string>()) {
  const upstream = await startUpstream({
    'GET /api/whoami': (req, res) => {
      const authorization = req.headers.authorization ?? null;
      if (authorization && revoked.has(authorization)) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"error":"invalid_token"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ authorization }));
    },
  });
  cleanups.push(upstream.close);
  return upstream;
}

async function machineIssuer(resource: string) {
  const as = await machineAuthorizationServer({ resource, scopes: ['pets:read'] });
  cleanups.push(as.close);
  return as;
}

describe('upstream auth: OAuth 2 client credentials against oidc-provider', () => {
  it.each([
    ['client_secret_basic', 'basic', 'Basic'],
    ['client_secret_post', 'post', 'body'],
  ] as const)(
    'a client credentials token (%s) is fetched, sent as Bearer, and cached across calls',
    async (authMethod, which, seenAs) => {
      const upstream = await echoUpstream();
      const as = await machineIssuer(upstream.url);
      const client = as.clients[which];
      const server = await fromOpenAPI(SPEC, {
        baseUrl: upstream.url,
        auth: {
          type: 'oauth2ClientCredentials',
          tokenUrl: `${as.issuer}/token`,
          clientId: client.clientId,
          clientSecret: client.clientSecret ?? '',
          scopes: ['pets:read'],
          authMethod,
        },
      });
      const mcp = await connectTestClient(server);
      cleanups.push(() => mcp.close());

      const first = await mcp.callTool('whoami', {});
      const second = await mcp.callTool('whoami', {});
      const authorization = String((first.structuredContent as any).authorization);
      expect(authorization).toMatch(/^Bearer ey/);
      expect((second.structuredContent as any).authorization).toBe(authorization);
      // A real token of the issuer, for this API, with the scope asked for.
      const { payload } = await jwtVerify(
        authorization.slice('Bearer '.length),
        createRemoteJWKSet(new URL(as.jwksUri)),
        { issuer: as.issuer, audience: upstream.url },
      );
      expect(payload.client_id).toBe(client.clientId);
      expect(payload.scope).toBe('pets:read');
      expect(as.tokenRequests).toEqual([{ authentication: seenAs }]);
    },
  );

  it('a 401 from the API to a cached token fetches a fresh token and retries once', async () => {
    const revoked = new Set<string>();
    const upstream = await echoUpstream(revoked);
    const as = await machineIssuer(upstream.url);
    const server = await fromOpenAPI(SPEC, {
      baseUrl: upstream.url,
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `${as.issuer}/token`,
        clientId: as.clients.basic.clientId,
        clientSecret: as.clients.basic.clientSecret ?? '',
      },
    });
    const mcp = await connectTestClient(server);
    cleanups.push(() => mcp.close());
    const first = String(
      ((await mcp.callTool('whoami', {})).structuredContent as any).authorization,
    );
    revoked.add(first);
    const again = await mcp.callTool('whoami', {});
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as any).authorization).not.toBe(first);
    expect(as.tokenRequests).toHaveLength(2);
  });

  it('a refused grant is an isError naming the token endpoint and the OAuth error, and the API is not called', async () => {
    const upstream = await echoUpstream();
    const as = await machineIssuer(upstream.url);
    const server = await fromOpenAPI(SPEC, {
      baseUrl: upstream.url,
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `${as.issuer}/token`,
        clientId: as.clients.basic.clientId,
        clientSecret: 'wrong-secret',
      },
    });
    const mcp = await connectTestClient(server);
    cleanups.push(() => mcp.close());
    const result = await mcp.callTool('whoami', {});
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text).toContain(`the token endpoint ${as.issuer}/token refused`);
    expect(text).toContain('invalid_client');
    expect(text).toContain('auth.clientSecret');
    expect(upstream.seen).toEqual([]);
  });

  it('a token endpoint slower than timeoutMs is an isError naming the endpoint and timeoutMs', async () => {
    const upstream = await echoUpstream();
    const slow = await startUpstream({
      'POST /token': (_req, res) => {
        const timer = setTimeout(() => res.end('{}'), 5_000);
        res.on('close', () => clearTimeout(timer));
      },
    });
    cleanups.push(slow.close);
    const server = await fromOpenAPI(SPEC, {
      baseUrl: upstream.url,
      timeoutMs: 300,
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `${slow.origin}/token`,
        clientId: 'a',
        clientSecret: 'b',
      },
    });
    const mcp = await connectTestClient(server);
    cleanups.push(() => mcp.close());
    const started = Date.now();
    const result = await mcp.callTool('whoami', {});
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      `${slow.origin}/token did not answer within 300 ms`,
    );
    expect(upstream.seen).toEqual([]);
  });

  it('a token URL that is not an absolute http(s) URL fails at startup naming auth.tokenUrl', async () => {
    const error = await fromOpenAPI(SPEC, {
      baseUrl: 'http://127.0.0.1:9/api',
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: '/token',
        clientId: 'a',
        clientSecret: 'b',
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAPIError);
    expect((error as Error).message).toContain('auth.tokenUrl "/token"');
  });
});

describe("upstream auth: the MCP caller's token", () => {
  async function guarded(auth: FromOpenAPIOptions['auth']) {
    const upstream = await echoUpstream();
    // The resource names its port, so the port is chosen before the server listens; a port
    // taken meanwhile is tried again, with an issuer for the new resource.
    const { as, handle, resource } = await onFreePort(async (port) => {
      const resource = `http://127.0.0.1:${port}/mcp`;
      const as = await machineIssuer(resource);
      const server = await fromOpenAPI(SPEC, { baseUrl: upstream.url, auth });
      const handle = await serveHttp(server, {
        port,
        ...oauthResource({
          resource,
          authorizationServers: [as.issuer],
          verifier: jwtVerifier({ issuer: as.issuer, jwksUri: as.jwksUri, audience: resource }),
        }),
      });
      return { as, handle, resource };
    });
    cleanups.push(() => handle.close());
    // The MCP client's token, from the same issuer, for the MCP server.
    const answer = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${btoa(`${as.clients.basic.clientId}:${as.clients.basic.clientSecret}`)}`,
      },
      body: 'grant_type=client_credentials&scope=pets:read',
    });
    const token = ((await answer.json()) as { access_token: string }).access_token;
    const client = new Client({ name: 'caller', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    cleanups.push(() => client.close());
    return { client, token, upstream };
  }

  it("forwardCallerToken sends the verified caller's token to the API", async () => {
    const { client, token } = await guarded({ type: 'forwardCallerToken' });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as any).authorization).toBe(`Bearer ${token}`);
  });

  it("without forwardCallerToken the caller's token never reaches the API", async () => {
    const { client } = await guarded(undefined);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect((result.structuredContent as any).authorization).toBeNull();
  });

  it('forwardCallerToken on a call without a caller token is an isError and nothing is sent', async () => {
    const upstream = await echoUpstream();
    const server = await fromOpenAPI(SPEC, {
      baseUrl: upstream.url,
      auth: { type: 'forwardCallerToken' },
    });
    const mcp = await connectTestClient(server);
    cleanups.push(() => mcp.close());
    const result = await mcp.callTool('whoami', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('oauthResource');
    expect(upstream.seen).toEqual([]);
  });
});
