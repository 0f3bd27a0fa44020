import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, Resource } from '@mcp-fw/core';
import type { HttpServerHandle } from '@mcp-fw/core/node';
import { type jwksServer, sign, type SigningKey } from './support/issuer.ts';
import { jwtProtected, MODERN } from './support/protected.ts';

// Issue #30, row 7: the 403 insufficient_scope challenge named the resource URI in
// `WWW-Authenticate`; a URI with CR/LF or a non-ASCII character cannot go into a header, so
// writing the answer threw, the client got an empty 500 and a stack trace went to stderr.

const ISSUER = 'https://issuer.test';

class Vault {
  @Resource('vault://admin/{name}', { description: 'Admin entries', scopes: ['vault:admin'] })
  entry({ name }: { name: string }) {
    return `entry ${name}`;
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;
const token = () => sign(key, { iss: ISSUER, aud: resource, sub: 'reader', scope: 'vault:read' });

beforeAll(async () => {
  ({ key, jwks, handle, resource } = await jwtProtected(
    createServer({ name: 'vault', version: '1.0.0', providers: [Vault] }),
  ));
});
afterAll(async () => {
  await handle.close();
  await jwks.close();
});

let stderr: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  stderr = [];
});
function watchStderr() {
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
}

async function legacySession(bearer: string): Promise<Record<string, string>> {
  const headers = {
    authorization: `Bearer ${bearer}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const init = await fetch(handle.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    }),
  });
  await init.text();
  return {
    ...headers,
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': '2025-11-25',
  };
}

const URIS = [
  ['CR/LF', 'vault://admin/a\r\nx-injected: 1'],
  ['€', 'vault://admin/€uro'],
  ['a lone surrogate', 'vault://admin/\ud800'],
] as const;

describe('a scoped resource URI containing CR/LF or € is refused with 403 and a JSON-RPC error, never a 500 or a stack trace', () => {
  it.each(URIS)('legacy resources/read and resources/subscribe (%s)', async (_name, uri) => {
    const headers = await legacySession(await token());
    watchStderr();
    for (const [id, method] of [
      [1, 'resources/read'],
      [2, 'resources/subscribe'],
    ] as const) {
      const response = await fetch(handle.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { uri } }),
      });
      expect(response.status).toBe(403);
      const challenge = response.headers.get('www-authenticate')!;
      expect(challenge).toMatch(
        /^Bearer error="insufficient_scope", scope="vault:admin vault:read"/,
      );
      // Every character of the challenge is one RFC 6750 allows in a quoted value.
      expect(challenge).toMatch(/^[\x20-\x7e]+$/);
      expect(challenge).not.toContain('x-injected: 1"');
      expect(response.headers.get('x-injected')).toBeNull();
      const body = JSON.parse(await response.text());
      expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32000 } });
      // The JSON body names the URI as it was sent.
      expect(body.error.message).toContain(`the resource ${uri} needs scope vault:admin`);
    }
    expect(stderr.join('')).toBe('');
  });

  it.each(URIS)('2026-07-28 resources/read, the URI in Mcp-Name (%s)', async (_name, uri) => {
    const bearer = await token();
    watchStderr();
    const encoded = `=?base64?${Buffer.from(uri, 'utf8').toString('base64')}?=`;
    const response = await fetch(handle.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'resources/read',
        'mcp-name': encoded,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'resources/read',
        params: {
          uri,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(await response.text())).toMatchObject({ error: { code: -32000 } });
    expect(stderr.join('')).toBe('');
  });
});
