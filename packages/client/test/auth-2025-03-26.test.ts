import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import { AuthorizationError, connect, oauth } from '@mcp-fw/client';

// The 2025-03-26 authorization fallbacks against a real mcp-fw server over HTTP that signs in
// the way servers of that revision did: no protected resource metadata (RFC 9728 came in
// 2025-06-18), the server's origin is its own authorization server, with RFC 8414 metadata at
// the root or, without even that, the default /authorize, /token and /register endpoints.
// The official suite's two 2025-03-26 scenarios run in auth-conformance.test.ts.

class Desk {
  @Tool({ description: 'Echoes its text', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return `echo ${text}`;
  }
}

const REDIRECT = 'http://127.0.0.1:9/callback';
const handles: HttpServerHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

interface Legacy {
  readonly url: string;
  /** Every request the server saw: `METHOD path authorization`. */
  readonly log: string[];
}

/**
 * A 2025-03-26 server guarded by OAuth: `metadata` serves RFC 8414 metadata at the origin's
 * well-known URL (with endpoints under /oauth); without it, only the default endpoints exist.
 */
async function legacyServer(metadata: boolean): Promise<Legacy> {
  const log: string[] = [];
  let origin = '';
  const prefix = metadata ? '/oauth' : '';
  const json = (status: number, value: unknown, headers = {}): HttpReply => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });
  const routes = async (req: HttpRequestView): Promise<HttpReply | undefined> => {
    log.push(`${req.method} ${req.path} ${req.header('authorization') ?? '-'}`);
    if (metadata && req.path === '/.well-known/oauth-authorization-server')
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}${prefix}/authorize`,
        token_endpoint: `${origin}${prefix}/token`,
        registration_endpoint: `${origin}${prefix}/register`,
        code_challenge_methods_supported: ['S256'],
      });
    if (req.path === `${prefix}/register` && req.method === 'POST')
      return json(201, { client_id: 'legacy-client', client_secret: 'legacy-secret' });
    if (req.path === `${prefix}/authorize`) {
      const back = new URL(String(req.url.searchParams.get('redirect_uri')));
      back.searchParams.set('code', 'legacy-code');
      back.searchParams.set('state', String(req.url.searchParams.get('state')));
      return { status: 302, headers: { location: back.href } };
    }
    if (req.path === `${prefix}/token` && req.method === 'POST') {
      const form = new URLSearchParams(await req.text(10_000));
      if (form.get('code') !== 'legacy-code' || !form.get('code_verifier'))
        return json(400, { error: 'invalid_grant' });
      return json(200, { access_token: 'legacy-token', token_type: 'Bearer', expires_in: 600 });
    }
    // Any other document (protected resource metadata among them) is not there.
    if (!['/mcp', '/sse', '/messages'].includes(req.path)) return json(404, { error: 'not_found' });
    return undefined;
  };
  const server = createServer({ name: 'legacy', version: '1.0.0', providers: [Desk] });
  const handle = await serveHttp(server, {
    port: 0,
    routes,
    authenticate: (req) => {
      log.push(`${req.method} ${req.path} ${req.header('authorization') ?? '-'}`);
      return req.header('authorization') === 'Bearer legacy-token'
        ? { auth: { subject: 'someone' } }
        : { reject: { status: 401, wwwAuthenticate: 'Bearer', message: 'Unauthorized' } };
    },
  });
  handles.push(handle);
  origin = `http://127.0.0.1:${handle.port}`;
  return { url: `${origin}/mcp`, log };
}

/** A headless sign-in: follows the authorization endpoint's redirect without a browser. */
function headless(visited: URL[]) {
  return oauth({
    clientName: 'legacy test',
    redirectUrl: REDIRECT,
    onAuthorizationUrl: async (url) => {
      visited.push(url);
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      return String(response.headers.get('location'));
    },
  });
}

describe('the 2025-03-26 authorization fallbacks', () => {
  it("a server without protected resource metadata is signed in at the authorization server metadata on the server's origin", async () => {
    const server = await legacyServer(true);
    const visited: URL[] = [];
    const client = await connect(server.url, { auth: headless(visited), timeoutMs: 10_000 });
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo hi' }]);
    await client.close();
    const origin = new URL(server.url).origin;
    expect(visited.map((url) => url.origin + url.pathname)).toEqual([`${origin}/oauth/authorize`]);
    expect(visited[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(server.log).toContain('GET /.well-known/oauth-authorization-server -');
    expect(server.log).toContain('POST /oauth/register -');
    // The registered secret goes with the code, as client_secret_basic.
    expect(server.log.filter((line) => line.startsWith('POST /oauth/token'))).toEqual([
      `POST /oauth/token Basic ${btoa('legacy-client:legacy-secret')}`,
    ]);
    expect(server.log).toContain('POST /mcp Bearer legacy-token');
  });

  it("a server without any metadata is signed in at /authorize, /token and /register on the server's origin", async () => {
    const server = await legacyServer(false);
    const visited: URL[] = [];
    const client = await connect(server.url, { auth: headless(visited), timeoutMs: 10_000 });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['echo']);
    await client.close();
    const origin = new URL(server.url).origin;
    expect(visited.map((url) => url.origin + url.pathname)).toEqual([`${origin}/authorize`]);
    expect(server.log).toContain('GET /.well-known/oauth-authorization-server -');
    expect(server.log).toContain('POST /register -');
    expect(server.log.filter((line) => line.startsWith('POST /token'))).toEqual([
      `POST /token Basic ${btoa('legacy-client:legacy-secret')}`,
    ]);
    expect(server.log).toContain('POST /mcp Bearer legacy-token');
  });

  it('a 2024-11-05 HTTP+SSE server signed in by the fallbacks gets its token on the message endpoint too', async () => {
    const server = await legacyServer(false);
    const origin = new URL(server.url).origin;
    const client = await connect(`${origin}/sse`, {
      auth: headless([]),
      transport: 'http+sse',
      timeoutMs: 10_000,
    });
    expect((await client.callTool('echo', { text: 'old' })).content).toEqual([
      { type: 'text', text: 'echo old' },
    ]);
    await client.close();
    expect(server.log).toContain('GET /sse Bearer legacy-token');
    expect(server.log.some((line) => /^POST \/messages Bearer legacy-token$/.test(line))).toBe(
      true,
    );
  });

  it('a challenge naming resource metadata that is not there is refused, not guessed around (resource-metadata)', async () => {
    const server = await legacyServer(false);
    const origin = new URL(server.url).origin;
    const prm = `${origin}/.well-known/oauth-protected-resource/mcp`;
    // The same server, but its challenge names metadata it does not serve: a 2025-06-18+
    // server misconfigured, which the fallbacks must not paper over.
    const misconfigured: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 401) return response;
      await response.body?.cancel();
      return new Response('{}', {
        status: 401,
        headers: { 'www-authenticate': `Bearer resource_metadata="${prm}"` },
      });
    };
    const error = await connect(server.url, {
      fetch: misconfigured,
      auth: headless([]),
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).reason).toBe('resource-metadata');
    expect((error as Error).message).toContain(`${prm} (HTTP 404)`);
    expect(server.log.some((line) => line.includes('/register') || line.includes('/token'))).toBe(
      false,
    );
  });
});
