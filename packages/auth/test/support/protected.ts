import { z } from 'zod';
import { createServer, Tool, type Context, type McpFwServer } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '@mcp-fw/core/node';
import {
  jwtVerifier,
  oauthResource,
  type OAuthResourceOptions,
  type TokenVerifier,
} from '@mcp-fw/auth';
import { onFreePort } from '../../../../test-support/ports.ts';
import { jwksServer, signingKey } from './issuer.ts';

// Re-exported for the tests that have imported it from here.
export { freePort } from '../../../../test-support/ports.ts';

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

/** A protected server listening at its canonical URL, verifying with `verifier(resource)`. */
export async function protectedServer(
  verifier: (resource: string) => TokenVerifier,
  extra: Partial<OAuthResourceOptions> = {},
  serve: ServeHttpOptions = {},
): Promise<{ handle: HttpServerHandle; resource: string }> {
  // Its canonical URL names its port, so the port is chosen before it listens.
  return onFreePort(async (port) => {
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
  });
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
  const issuer = 'https://issuer.test';
  // Its canonical URL names its port, so the port is chosen before it listens.
  const { handle, resource } = await onFreePort(async (port) => {
    const resource = `http://127.0.0.1:${port}/mcp`;
    const handle = await serveHttp(server, {
      port,
      ...oauthResource({
        resource,
        authorizationServers: [issuer],
        verifier: jwtVerifier({ issuer, jwksUri: jwks.url, audience: resource }),
      }),
    });
    return { handle, resource };
  });
  return { key, jwks, handle, resource };
}
