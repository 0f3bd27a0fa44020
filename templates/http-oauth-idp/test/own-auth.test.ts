import { createHash, randomBytes } from 'node:crypto';
import { devUpstreamProvider, type DevUpstreamProvider } from '@mcp-fw/auth/dev';
import { oidcUpstream } from '@mcp-fw/auth/server';
import { createHttpHandler, type McpHttpHandler } from '@mcp-fw/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenSettings, ownAuthorizationServer, protection, required } from '../src/auth.js';
import { IDP_VARIABLES, upstream } from '../src/idp.js';
import { createNotesServer } from '../src/server.js';

// The handler `npm start` serves, called with web-standard Requests: the MCP endpoint and this
// server's own authorization server beside it, with the development identity provider (a real
// oidc-provider on 127.0.0.1, as `npm run dev` starts) standing in for the real one.
const ORIGIN = 'http://127.0.0.1:3000';
const listen = listenSettings({}, true);
let idp: DevUpstreamProvider;
let mcp: McpHttpHandler;
beforeAll(async () => {
  idp = await devUpstreamProvider({ redirectUri: `${ORIGIN}/oauth/callback` });
  const server = createNotesServer();
  const as = await ownAuthorizationServer(
    server,
    listen,
    oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }),
    {},
  );
  mcp = createHttpHandler(server, protection(server, as));
});
afterAll(async () => {
  await mcp?.close();
  await idp?.close();
});

const get = async (path: string) => {
  const response = await mcp.fetch(new Request(`${ORIGIN}${path}`, { redirect: 'manual' }));
  return { status: response.status, response };
};

describe('its own authorization server', () => {
  it('is the one the protected resource metadata names, on the same origin', async () => {
    const { response } = await get('/.well-known/oauth-protected-resource/mcp');
    expect(await response.json()).toMatchObject({
      resource: `${ORIGIN}/mcp`,
      authorization_servers: [ORIGIN],
      scopes_supported: ['notes:read', 'notes:write'],
    });
  });

  it('publishes RFC 8414 metadata: PKCE S256 only, client ID metadata documents, iss in responses', async () => {
    const { status, response } = await get('/.well-known/oauth-authorization-server');
    expect(status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['notes:read', 'notes:write'],
    });
  });

  it('sends a sign-in on to the identity provider, with this server callback as redirect URI', async () => {
    const registered = await mcp.fetch(
      new Request(`${ORIGIN}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'] }),
      }),
    );
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: createHash('sha256')
        .update(randomBytes(32).toString('base64url'))
        .digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'notes:read',
    });
    const { status, response } = await get(`/oauth/authorize?${query}`);
    expect(status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/oauth/callback`);
    expect(location.searchParams.get('client_id')).toBe(idp.clientId);
  });

  it('answers a request without a token with 401 pointing at the metadata', async () => {
    const response = await mcp.fetch(
      new Request(`${ORIGIN}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="notes:read", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('settings', () => {
  it("names the identity provider's first missing variable and what it holds", () => {
    const [first, ...rest] = Object.keys(IDP_VARIABLES);
    expect(() => upstream({})).toThrow(`${first} is not set: set it to ${IDP_VARIABLES[first]}`);
    const all = Object.fromEntries(
      Object.keys(IDP_VARIABLES).map((name) => [name, `https://${name.toLowerCase()}.example`]),
    );
    expect(upstream(all).clientId).toMatch(/^https:\/\/.*client_id\.example$/);
    if (rest.length) expect(() => upstream({ [first]: 'x' })).toThrow(`${rest[0]} is not set`);
  });

  it('needs MCP_RESOURCE_URL in production, and takes http://127.0.0.1:PORT/mcp in development', () => {
    expect(() => listenSettings({}, false)).toThrow(/^MCP_RESOURCE_URL is not set/);
    expect(listenSettings({ PORT: '8080' }, true)).toEqual({
      port: 8080,
      resource: 'http://127.0.0.1:8080/mcp',
    });
    expect(() => required({ X: '' }, 'X', 'an x')).toThrow('X is not set: set it to an x');
  });
});
