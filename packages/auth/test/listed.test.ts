import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, Prompt, Resource, Scopes, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { jwtVerifier, listedWithScopes, oauthResource } from '@mcp-fw/auth';
import { jwksServer, sign, signingKey, type SigningKey } from './support/issuer.ts';
import { onFreePort } from '../../../test-support/ports.ts';

const ISSUER = 'https://issuer.test';

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list() {
    return '';
  }

  @Tool({ description: 'Adds a note', input: z.object({}), scopes: ['notes:write'] })
  add() {
    return '';
  }

  @Tool({ description: 'Open to all', input: z.object({}), scopes: [] })
  ping() {
    return 'pong';
  }

  @Resource('notes://admin', { description: 'Admin note', scopes: ['notes:admin'] })
  admin() {
    return '';
  }

  @Resource('notes://{id}', { description: 'A note' })
  note() {
    return '';
  }

  @Prompt({ description: 'Rewrites', scopes: ['notes:write'] })
  rewrite() {
    return '';
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await jwksServer(() => [key.jwk]);
  // Its canonical URL names its port, so the port is chosen before it listens.
  handle = await onFreePort((port) => {
    resource = `http://127.0.0.1:${port}/mcp`;
    const server = createServer({
      name: 'notes',
      version: '1.0.0',
      providers: [Notes],
      listed: listedWithScopes,
    });
    return serveHttp(server, {
      port,
      ...oauthResource({
        resource,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource }),
      }),
    });
  });
});
afterAll(async () => {
  await handle.close();
  await jwks.close();
});

async function lists(scope: string, mode: 'legacy' | 'auto') {
  const bearer = await sign(key, { iss: ISSUER, aud: resource, sub: 'alice', scope });
  const client = new Client(
    { name: 'lists', version: '1.0.0' },
    mode === 'auto'
      ? { versionNegotiation: { mode: 'auto' } }
      : { supportedProtocolVersions: ['2025-11-25'] },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(handle.url), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  try {
    return {
      tools: (await client.listTools()).tools.map((t) => t.name),
      prompts: (await client.listPrompts()).prompts.map((p) => p.name),
      resources: (await client.listResources()).resources.map((r) => r.uri),
      templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
    };
  } finally {
    await client.close();
  }
}

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'auto'],
] as const)('listed: listedWithScopes (%s)', (_revision, mode) => {
  it('a notes:read token sees only what it may use', async () => {
    expect(await lists('notes:read', mode)).toEqual({
      tools: ['list', 'ping'],
      prompts: [],
      resources: [],
      templates: ['notes://{id}'],
    });
  });

  it('a wider token sees more; the lists of one never leak into the other (no shared cache)', async () => {
    expect(await lists('notes:read notes:write notes:admin', mode)).toEqual({
      tools: ['list', 'add', 'ping'],
      prompts: ['rewrite'],
      resources: ['notes://admin'],
      templates: ['notes://{id}'],
    });
    expect((await lists('profile', mode)).tools).toEqual(['ping']);
  });
});
