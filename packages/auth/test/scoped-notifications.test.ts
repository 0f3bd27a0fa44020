import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Resource, Tool, type Context } from '@mcp-fw/core';
import type { HttpServerHandle } from '@mcp-fw/core/node';
import { type jwksServer, sign, type SigningKey } from './support/issuer.ts';
import { jwtProtected, MODERN } from './support/protected.ts';

// Issue #30, row 6: a 2026-07-28 `subscriptions/listen` with a read-only token received
// update notifications for a resource that needs `admin`: the listen filter's URIs were never
// checked against the member's scopes, as `resources/read` and `resources/subscribe` are.

const ISSUER = 'https://issuer.test';

class Ledger {
  @Resource('ledger://public', { description: 'Public ledger', scopes: ['ledger:read'] })
  public() {
    return 'public';
  }

  @Resource('ledger://admin', { description: 'Admin ledger', scopes: ['ledger:admin'] })
  admin() {
    return 'admin';
  }

  @Resource('ledger://accounts/{id}', { description: 'An account', scopes: ['ledger:admin'] })
  account({ id }: { id: string }) {
    return id;
  }

  @Tool({ description: 'Touches every resource', input: z.object({}), scopes: [] })
  touch(_: object, ctx: Context) {
    for (const uri of ['ledger://public', 'ledger://admin', 'ledger://accounts/7'])
      ctx.resourceUpdated(uri);
    return 'touched';
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;
const token = (scope: string) => sign(key, { iss: ISSUER, aud: resource, sub: 'reader', scope });

beforeAll(async () => {
  ({ key, jwks, handle, resource } = await jwtProtected(
    createServer({ name: 'ledger', version: '1.0.0', providers: [Ledger] }),
  ));
});
afterAll(async () => {
  await handle.close();
  await jwks.close();
});

const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function listen(bearer: string, uris: string[], signal?: AbortSignal): Promise<Response> {
  return fetch(handle.url, {
    method: 'POST',
    signal,
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'sub-1',
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: uris }, _meta: envelope },
    }),
  });
}

async function touch(bearer: string): Promise<void> {
  const response = await fetch(handle.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'touch',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'touch', arguments: {}, _meta: envelope },
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

/** The JSON-RPC messages of an SSE stream until `stop` says so (or it ends). */
async function messages(response: Response, stop: (m: any) => boolean): Promise<any[]> {
  const seen: any[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return seen;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      buffer = buffer.slice(end + 2);
      if (!data) continue;
      const message = JSON.parse(data);
      seen.push(message);
      if (stop(message)) {
        await reader.cancel();
        return seen;
      }
    }
  }
}

describe('2026-07-28 subscriptions/listen with a read-only token receives no update of a resource that needs admin', () => {
  it('a listen naming an admin resource (or one its template serves) is refused with 403 insufficient_scope', async () => {
    const bearer = await token('ledger:read');
    for (const uri of ['ledger://admin', 'ledger://accounts/7']) {
      const response = await listen(bearer, ['ledger://public', uri]);
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toMatch(
        /error="insufficient_scope", scope="ledger:admin ledger:read"/,
      );
      expect(JSON.parse(await response.text())).toMatchObject({
        id: 'sub-1',
        error: {
          message: `Forbidden: the resource ${uri} needs scope ledger:admin; authorize again with it`,
        },
      });
    }
  });

  it('a listen on what the token may read hears those updates only; with the scope, the admin ones too', async () => {
    const reader = await token('ledger:read');
    const controller = new AbortController();
    const open = await listen(reader, ['ledger://public'], controller.signal);
    expect(open.status).toBe(200);
    const heard = messages(open, (m) => m.method === 'notifications/resources/updated');
    // The acknowledgement goes out first; touch once the stream is open.
    await new Promise((r) => setTimeout(r, 200));
    await touch(reader);
    const got = await heard;
    controller.abort();
    const updates = got.filter((m) => m.method === 'notifications/resources/updated');
    expect(updates.map((m) => m.params.uri)).toEqual(['ledger://public']);

    const admin = await token('ledger:read ledger:admin');
    const adminController = new AbortController();
    const adminOpen = await listen(
      admin,
      ['ledger://admin', 'ledger://accounts/7'],
      adminController.signal,
    );
    expect(adminOpen.status).toBe(200);
    let count = 0;
    const adminHeard = messages(
      adminOpen,
      (m) => m.method === 'notifications/resources/updated' && ++count === 2,
    );
    await new Promise((r) => setTimeout(r, 200));
    await touch(reader);
    const adminGot = await adminHeard;
    adminController.abort();
    expect(
      adminGot
        .filter((m) => m.method === 'notifications/resources/updated')
        .map((m) => m.params.uri),
    ).toEqual(['ledger://admin', 'ledger://accounts/7']);
  });
});
