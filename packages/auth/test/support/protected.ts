import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { z } from 'zod';
import { createServer, Tool, type Context, type McpFwServer } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '@mcp-fw/core/node';
import {
  jwtVerifier,
  oauthResource,
  type OAuthResourceOptions,
  type TokenVerifier,
} from '@mcp-fw/auth';
import { jwksServer, signingKey } from './issuer.ts';

export const MODERN = '2026-07-28';

/** How many times the protected tool ran (nothing may run for a refused request). */
export const counter = { served: 0 };

class Secrets {
  @Tool({ description: 'Tells a secret', input: z.object({}) })
  secret(_: object, ctx: Context) {
    counter.served++;
    return JSON.stringify(ctx.auth);
  }
}

export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A protected server listening at its canonical URL, verifying with `verifier(resource)`. */
export async function protectedServer(
  verifier: (resource: string) => TokenVerifier,
  extra: Partial<OAuthResourceOptions> = {},
  serve: ServeHttpOptions = {},
): Promise<{ handle: HttpServerHandle; resource: string }> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const server = createServer({ name: 'secrets', version: '1.0.0', providers: [Secrets] });
  const handle = await serveHttp(server, {
    ...serve,
    port,
    ...oauthResource({
      resource,
      authorizationServers: ['https://issuer.test'],
      verifier: verifier(resource),
      scopesSupported: ['notes:read'],
      ...extra,
    }),
  });
  return { handle, resource };
}

/** A 2026-07-28 tools/call of `secret`: stateless, so one request reaches the tool. */
export function callSecret(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'secret',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'secret',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

/**
 * `server` over HTTP at its canonical URL, taking the JWTs `https://issuer.test` signs with one
 * key (`key`), whose key set a local endpoint serves (`jwks`); close both after the tests.
 */
export async function jwtProtected(server: McpFwServer) {
  const key = await signingKey('k1');
  const jwks = await jwksServer(() => [key.jwk]);
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const issuer = 'https://issuer.test';
  const handle = await serveHttp(server, {
    port,
    ...oauthResource({
      resource,
      authorizationServers: [issuer],
      verifier: jwtVerifier({ issuer, jwksUri: jwks.url, audience: resource }),
    }),
  });
  return { key, jwks, handle, resource };
}
