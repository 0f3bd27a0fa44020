import { InvalidTokenError, type TokenVerifier } from '@mcp-fw/auth';
import { createHttpHandler, type McpHttpHandler } from '@mcp-fw/core/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devAuthPort, issuerSettings, listenSettings, protection } from '../src/auth.js';
import { createNotesServer } from '../src/server.js';

// The handler `npm start` serves, with its OAuth options, called with web-standard Requests.
// Real tokens come from an authorization server (npm run dev starts one); here a stand-in
// verifier maps two made-up tokens to their scopes, so the scope checks run without one.
const listen = listenSettings({}, true);
const issuer = { issuer: 'https://auth.example.com', jwksUri: 'https://auth.example.com/jwks' };
const TOKENS: Record<string, string[]> = {
  'reader-token': ['notes:read'],
  'writer-token': ['notes:read', 'notes:write'],
};
const verifier: TokenVerifier = async (token) => {
  const scopes = TOKENS[token];
  if (!scopes) throw new InvalidTokenError('unknown token');
  return { subject: 'ada', scopes, claims: {} };
};

let mcp: McpHttpHandler;
beforeEach(() => {
  const server = createNotesServer();
  mcp = createHttpHandler(server, protection(server, listen, issuer, verifier));
});
afterEach(() => mcp.close());

const METADATA_URL = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

/** A 2025-11-25 JSON-RPC request (no session needed for this check: the token is checked first). */
function post(body: object, token?: string, session?: string): Promise<Response> {
  return mcp.fetch(
    new Request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...body }),
    }),
  );
}

const INITIALIZE = {
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  },
};

/** Initializes a session with `token`; returns its id. */
async function session(token: string): Promise<string> {
  const response = await post(INITIALIZE, token);
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id')!;
  expect((await post({ method: 'notifications/initialized' }, token, id)).status).toBe(202);
  return id;
}

describe('without a valid token', () => {
  it('answers 401 with a challenge pointing at the metadata', async () => {
    const response = await post(INITIALIZE);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="notes:read", resource_metadata="${METADATA_URL}"`,
    );
  });

  it('answers 401 invalid_token to a token the verifier refuses', async () => {
    const response = await post(INITIALIZE, 'made-up');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('serves the protected resource metadata to anyone', async () => {
    const response = await mcp.fetch(new Request(METADATA_URL));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: 'http://127.0.0.1:3000/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('with a token', () => {
  const call = (id: number, name: string, args: object) => ({
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });

  it('lets notes:read list the notes, and refuses add_note with 403 naming notes:write', async () => {
    const id = await session('reader-token');
    const listed = await post(call(2, 'list_notes', {}), 'reader-token', id);
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('No notes yet.');
    const refused = await post(call(3, 'add_note', { text: 'Buy milk' }), 'reader-token', id);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.headers.get('www-authenticate')).toContain('notes:write');
  });

  it('lets notes:write save a note', async () => {
    const id = await session('writer-token');
    const saved = await post(call(2, 'add_note', { text: 'Buy milk' }), 'writer-token', id);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Saved note 1.');
  });
});

describe('settings', () => {
  it('names each missing variable and how to set it', () => {
    expect(() => listenSettings({}, false)).toThrow(
      /^MCP_RESOURCE_URL is not set: set it to the URL clients use/,
    );
    expect(() => issuerSettings({})).toThrow(
      /^OAUTH_ISSUER is not set: set it to your authorization server's issuer URL/,
    );
    expect(() => issuerSettings({ OAUTH_ISSUER: 'https://auth.example.com' })).toThrow(
      /^OAUTH_JWKS_URL is not set/,
    );
    expect(() =>
      issuerSettings({
        OAUTH_ISSUER: 'auth.example.com',
        OAUTH_JWKS_URL: 'https://auth.example.com/jwks',
      }),
    ).toThrow('OAUTH_ISSUER must be an http(s) URL, got "auth.example.com"');
    expect(() => listenSettings({ PORT: '0' }, true)).toThrow(
      /^PORT=0 cannot be used with --dev-auth/,
    );
  });

  it('takes the resource URL from MCP_RESOURCE_URL, else http://127.0.0.1:PORT/mcp with --dev-auth', () => {
    expect(listenSettings({ PORT: '8080' }, true)).toEqual({
      port: 8080,
      resource: 'http://127.0.0.1:8080/mcp',
    });
    expect(listenSettings({ MCP_RESOURCE_URL: 'https://notes.example.com/mcp' }, false)).toEqual({
      port: 3000,
      resource: 'https://notes.example.com/mcp',
    });
  });

  it('runs the development authorization server on a fixed port, so its issuer is the same every start', () => {
    expect(devAuthPort({}, listenSettings({}, true))).toBe(3001);
    expect(devAuthPort({}, listenSettings({ PORT: '8080' }, true))).toBe(8081);
    expect(devAuthPort({ DEV_AUTH_PORT: '9000' }, listenSettings({}, true))).toBe(9000);
    expect(() => devAuthPort({ DEV_AUTH_PORT: 'x' }, listenSettings({}, true))).toThrow(
      'DEV_AUTH_PORT must be a port number (1-65535), got "x"',
    );
  });
});
