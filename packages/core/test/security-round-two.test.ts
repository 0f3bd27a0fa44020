import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, Resource, Tool } from '@mcp-fw/core';
import { defaultIdentify } from '../src/protocol/guards/identity.ts';
import { SURFACES, JSON_AND_SSE, initializeBody, type Surface } from './support/http-surfaces.ts';

// Issue #30 (security, round two): the attacks of rows 7, 10 and 12, each named after its row.

const surfaces: Surface[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(surfaces.splice(0).map((s) => s.close()));
});

class Shelf {
  @Tool({ description: 'Says hello', input: z.object({}) })
  hello() {
    return 'hello';
  }

  @Resource('shelf://admin/{name}', { description: 'Admin shelf', scopes: ['admin'] })
  entry({ name }: { name: string }) {
    return name;
  }
}

const shelf = () => createServer({ name: 'shelf', version: '1.0.0', providers: [Shelf] });

describe.each(SURFACES)(
  'a scoped resource URI containing CR/LF or € never becomes a 500 (%s)',
  (_name, make) => {
    it("a hook's challenge naming the URI is made header-safe: 403 and a JSON-RPC error, nothing on stderr", async () => {
      const s = await make(shelf(), {
        authenticate: () => ({ auth: { sub: 'reader', scopes: [] } }),
        // A custom hook that, like the first oauthResource, writes the client's URI into the header.
        authorize: (_auth, access) => ({
          status: 403,
          wwwAuthenticate: `Bearer error="insufficient_scope", error_description="no access to ${access.name}"`,
          message: `Forbidden: no access to ${access.name}`,
        }),
      });
      surfaces.push(s);
      const stderr: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        stderr.push(String(chunk));
        return true;
      });
      const init = await s.send({
        method: 'POST',
        path: '/mcp',
        headers: JSON_AND_SSE,
        body: initializeBody(),
      });
      const session = init.header('mcp-session-id')!;
      await init.text();
      for (const uri of [
        'shelf://admin/a\r\nset-cookie: x=1',
        'shelf://admin/€',
        'shelf://admin/\u0000',
      ]) {
        const response = await s.send({
          method: 'POST',
          path: '/mcp',
          headers: {
            ...JSON_AND_SSE,
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 3,
            method: 'resources/read',
            params: { uri },
          }),
        });
        expect(response.status).toBe(403);
        const challenge = response.header('www-authenticate')!;
        expect(challenge).toMatch(
          /^Bearer error="insufficient_scope", error_description="no access to shelf:\/\/admin\/[\x20-\x7e]*%[0-9A-F]{2}[\x20-\x7e]*"$/,
        );
        expect(response.header('set-cookie')).toBeUndefined();
        expect(JSON.parse(await response.text())).toEqual({
          jsonrpc: '2.0',
          id: 3,
          error: { code: -32000, message: `Forbidden: no access to ${uri}` },
        });
      }
      expect(stderr.join('')).toBe('');
    });
  },
);

describe('POST http://evil.com/mcp (absolute-form request target) is refused with 400', () => {
  const nodeSurface = SURFACES[1][1];

  it('a target naming another host is refused before anything runs; one naming the Host is served', async () => {
    const s = await nodeSurface(shelf());
    surfaces.push(s);
    const host = { host: 'localhost:4000' };
    for (const path of [
      'http://evil.com/mcp',
      'http://localhost:4001/mcp',
      'https://evil.com/mcp?x=1',
    ]) {
      const response = await s.send({
        method: 'POST',
        path,
        headers: { ...JSON_AND_SSE, ...host },
        body: initializeBody(),
      });
      expect(response.status).toBe(400);
      expect(response.header('mcp-session-id')).toBeUndefined();
      expect(JSON.parse(await response.text())).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: `Bad Request: the request target ${JSON.stringify(path)} is not a path on this server; send the path (e.g. POST /mcp) with a Host header`,
        },
      });
    }
    expect(s.sessionCount()).toBe(0);
    // RFC 9112 §3.2.2: a server accepts the absolute form; naming this very host, it is served.
    const same = await s.send({
      method: 'POST',
      path: 'http://LOCALHOST:4000/mcp',
      headers: { ...JSON_AND_SSE, ...host },
      body: initializeBody(),
    });
    expect(same.status).toBe(200);
    expect(same.header('mcp-session-id')).toBeDefined();
    await same.text();
  });
});

describe('a token with no sub whose client_id equals a user’s sub is another principal', () => {
  it('users and clients are named in separate namespaces that never meet', () => {
    expect(defaultIdentify({ subject: 'alice', clientId: 'app' })).toBe('alice');
    expect(defaultIdentify({ clientId: 'alice' })).toBe('client:alice');
    // A user whose own name looks like a client's (or like an escaped user) is kept apart.
    expect(defaultIdentify({ sub: 'client:alice' })).toBe('user:client:alice');
    expect(defaultIdentify({ sub: 'user:client:alice' })).toBe('user:user:client:alice');
    const names = [
      { sub: 'alice' },
      { clientId: 'alice' },
      { sub: 'client:alice' },
      { sub: 'user:client:alice' },
      { clientId: 'client:alice' },
      { sub: 'user:alice' },
    ].map(defaultIdentify);
    expect(new Set(names).size).toBe(names.length);
  });
});
