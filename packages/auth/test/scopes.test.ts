import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createServer, Prompt, Resource, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { jwksServer, sign, signingKey, type SigningKey } from './support/issuer.ts';
import { onFreePort } from '../../../test-support/ports.ts';
import { MODERN } from './support/protected.ts';

const ISSUER = 'https://issuer.test';
const ran: string[] = [];

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list(_: object, ctx: Context) {
    ran.push('list');
    const auth = authInfo(ctx);
    return `notes of ${auth.subject} (${auth.scopes.join(' ')})`;
  }

  @Tool({
    description: 'Adds a note',
    input: z.object({ text: z.string() }),
    scopes: ['notes:write'],
  })
  add({ text }: { text: string }) {
    ran.push('add');
    return `added ${text}`;
  }

  @Tool({ description: 'Open to any valid token', input: z.object({}), scopes: [] })
  ping() {
    return 'pong';
  }

  @Tool({
    description: 'The end of the caller token, as a token exchange would use it',
    input: z.object({}),
    scopes: [],
  })
  token_tail(_: object, ctx: Context) {
    return authInfo(ctx).token?.slice(-12) ?? 'none';
  }

  @Resource('notes://secret', {
    description: 'The admin note',
    mimeType: 'text/plain',
    scopes: ['notes:admin'],
  })
  secret() {
    ran.push('secret');
    return 'the secret note';
  }

  @Prompt({ description: 'Summarises', scopes: ['notes:write'] })
  rewrite() {
    ran.push('rewrite');
    return 'rewrite the notes';
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;
const token = (scope: string) =>
  sign(key, { iss: ISSUER, aud: resource, sub: 'alice', client_id: 'app', scope });

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await jwksServer(() => [key.jwk]);
  // Its canonical URL names its port, so the port is chosen before it listens.
  handle = await onFreePort((port) => {
    resource = `http://127.0.0.1:${port}/mcp`;
    const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes] });
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

const metadata = () =>
  `resource_metadata="http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp"`;

function modernPost(headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(handle.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      ...headers,
    },
    body,
  });
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('2026-07-28: scopes decided from Mcp-Method / Mcp-Name before the body is read', () => {
  it("a token lacking the tool's scope gets 403 insufficient_scope naming the scope, and nothing runs", async () => {
    const before = ran.length;
    // The body is not even JSON: had it been read, the answer would be a 400 parse error.
    const response = await modernPost(
      {
        authorization: `Bearer ${await token('notes:read')}`,
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
      },
      '{ not json',
    );
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toMatch(
      /^Bearer error="insufficient_scope", scope="notes:write notes:read", error_description="the tool add needs scope notes:write; authorize again with it", /,
    );
    expect(challenge).toContain(metadata());
    expect(JSON.parse(await response.text()).error.message).toBe(
      'Forbidden: the tool add needs scope notes:write; authorize again with it',
    );
    expect(ran.length).toBe(before);
  });

  it('the class default applies to members without their own scopes; scopes: [] opens a member', async () => {
    const call = async (scope: string, name: string) =>
      modernPost(
        {
          authorization: `Bearer ${await token(scope)}`,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: {}, _meta: envelope },
        }),
      );
    expect((await call('profile', 'list')).status).toBe(403);
    const ok = await call('notes:read', 'list');
    expect(ok.status).toBe(200);
    expect(JSON.parse(await ok.text()).result.content[0].text).toBe('notes of alice (notes:read)');
    expect((await call('profile', 'ping')).status).toBe(200);
  });

  it('the handler can reach the token for a token exchange, though ctx.auth never shows it in JSON', async () => {
    const bearer = await token('notes:read');
    const response = await modernPost(
      { authorization: `Bearer ${bearer}`, 'mcp-method': 'tools/call', 'mcp-name': 'token_tail' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'token_tail', arguments: {}, _meta: envelope },
      }),
    );
    expect(JSON.parse(await response.text()).result.content[0].text).toBe(bearer.slice(-12));
  });

  it('resources and prompts are guarded the same way (Mcp-Name carries the URI or the name)', async () => {
    const read = await modernPost(
      {
        authorization: `Bearer ${await token('notes:read notes:write')}`,
        'mcp-method': 'resources/read',
        'mcp-name': 'notes://secret',
      },
      '{}',
    );
    expect(read.status).toBe(403);
    expect(read.headers.get('www-authenticate')).toContain(
      'scope="notes:admin notes:read notes:write"',
    );
    const prompt = await modernPost(
      {
        authorization: `Bearer ${await token('notes:read')}`,
        'mcp-method': 'prompts/get',
        'mcp-name': 'rewrite',
      },
      '{}',
    );
    expect(prompt.status).toBe(403);
  });

  it("completing a member's arguments needs the member's scopes (decided once the body is read)", async () => {
    const complete = async (scope: string) =>
      modernPost(
        { authorization: `Bearer ${await token(scope)}`, 'mcp-method': 'completion/complete' },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'completion/complete',
          params: {
            ref: { type: 'ref/prompt', name: 'rewrite' },
            argument: { name: 'x', value: '' },
            _meta: envelope,
          },
        }),
      );
    const denied = await complete('notes:read');
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toContain('scope="notes:write notes:read"');
    expect(JSON.parse(await denied.text())).toMatchObject({
      id: 9,
      error: {
        message: 'Forbidden: the prompt rewrite needs scope notes:write; authorize again with it',
      },
    });
    // With the scope, the request reaches the completion handler (which knows no argument x).
    expect((await complete('notes:read notes:write')).status).not.toBe(403);
  });

  it('headers that disagree with the body cannot smuggle a call past the check', async () => {
    const before = ran.length;
    const response = await modernPost(
      {
        authorization: `Bearer ${await token('notes:read')}`,
        'mcp-method': 'tools/call',
        'mcp-name': 'list',
      },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'add', arguments: { text: 'x' }, _meta: envelope },
      }),
    );
    expect(response.status).toBe(400);
    expect(ran.length).toBe(before);
  });
});

describe('declaring scopes', () => {
  it('a malformed scope stops the server at startup, naming the member', () => {
    class Bad {
      @Tool({ description: 'Bad', input: z.object({}), scopes: ['notes read'] })
      bad() {
        return '';
      }
    }
    expect(() => createServer({ name: 'bad', version: '1.0.0', providers: [Bad] })).toThrow(
      /Bad\.bad: scopes must be a list of OAuth scope tokens/,
    );
  });
});

describe('legacy revisions: scopes decided after the body is parsed, before anything runs', () => {
  async function client2(scope: string) {
    const client = new Client(
      { name: 'scopes-test', version: '1.0.0' },
      { supportedProtocolVersions: ['2025-11-25'] },
    );
    const transport = new StreamableHTTPClientTransport(new URL(handle.url), {
      requestInit: { headers: { authorization: `Bearer ${await token(scope)}` } },
    });
    await client.connect(transport);
    return client;
  }

  it('Streamable HTTP (official client 2.x, 2025-11-25): the call needing a missing scope is a 403, others are served', async () => {
    const client = await client2('notes:read');
    try {
      expect((await client.callTool({ name: 'list', arguments: {} })).content).toEqual([
        { type: 'text', text: 'notes of alice (notes:read)' },
      ]);
      const before = ran.length;
      // The client read the 403's challenge: it knows which scope to ask for.
      await expect(client.callTool({ name: 'add', arguments: { text: 'x' } })).rejects.toThrow(
        'Insufficient scope: required "notes:write notes:read"',
      );
      expect(ran.length).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP raw: the 403 carries the challenge and the request id', async () => {
    const auth = {
      authorization: `Bearer ${await token('notes:read')}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(handle.url, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const response = await fetch(handle.url, {
      method: 'POST',
      headers: { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'prompts/get',
        params: { name: 'rewrite' },
      }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="notes:write notes:read"/,
    );
    expect(JSON.parse(await response.text())).toMatchObject({
      id: 7,
      error: { message: expect.stringMatching(/prompt rewrite needs scope notes:write/) },
    });
    const completion = await fetch(handle.url, {
      method: 'POST',
      headers: { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'completion/complete',
        params: {
          ref: { type: 'ref/prompt', name: 'rewrite' },
          argument: { name: 'x', value: '' },
        },
      }),
    });
    expect(completion.status).toBe(403);
    expect(JSON.parse(await completion.text())).toMatchObject({ id: 8 });
  });

  it("a legacy session stays bound to the token's subject: another user's valid token cannot reach it (404)", async () => {
    const headers = (bearer: string) => ({
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    const alice = await token('notes:read');
    const init = await fetch(handle.url, {
      method: 'POST',
      headers: headers(alice),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const list = (bearer: string) =>
      fetch(handle.url, {
        method: 'POST',
        headers: {
          ...headers(bearer),
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list', arguments: {} },
        }),
      });
    const bob = await sign(key, { iss: ISSUER, aud: resource, sub: 'bob', scope: 'notes:read' });
    const before = ran.length;
    const stolen = await list(bob);
    expect(stolen.status).toBe(404);
    await stolen.text();
    expect(ran.length).toBe(before);
    const own = await list(await token('notes:read'));
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('notes of alice');
  });

  it('HTTP+SSE (official SDK 1.x, 2024-11-05): the message is refused with 403 instead of 202', async () => {
    const bearer = `Bearer ${await token('notes:read')}`;
    const client = new Client1({ name: 'scopes-test', version: '1.0.0' });
    const transport = new SSEClientTransport(new URL(`http://127.0.0.1:${handle.port}/sse`), {
      requestInit: { headers: { authorization: bearer } },
      eventSourceInit: {
        fetch: (url, init) =>
          fetch(url, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), authorization: bearer },
          }),
      },
    });
    await client.connect(transport);
    try {
      expect((await client.callTool({ name: 'list', arguments: {} })).content).toEqual([
        { type: 'text', text: 'notes of alice (notes:read)' },
      ]);
      const before = ran.length;
      await expect(client.callTool({ name: 'add', arguments: { text: 'x' } })).rejects.toThrow(
        /403/,
      );
      expect(ran.length).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('a token with the wider scope is served', async () => {
    const client = await client2('notes:read notes:write');
    try {
      expect((await client.callTool({ name: 'add', arguments: { text: 'milk' } })).content).toEqual(
        [{ type: 'text', text: 'added milk' }],
      );
    } finally {
      await client.close();
    }
  });
});
