import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import type { HttpServerHandle } from '@mcp-fw/core/node';
import { type jwksServer, sign, type SigningKey } from './support/issuer.ts';
import { jwtProtected, MODERN } from './support/protected.ts';

// Issue #30, row 10: the principal was `sub`, else `client_id`, in one namespace, so a token
// with no `sub` whose `client_id` equals a user's `sub` was that user.

const ISSUER = 'https://issuer.test';
const ran: string[] = [];

class Diary {
  @Tool({ description: 'Reads the diary', input: z.object({}) })
  read() {
    ran.push('read');
    return 'dear diary';
  }

  @Tool({ description: 'Writes once confirmed', input: z.object({}) })
  async write(_: object, ctx: Context) {
    const ok = await ctx.elicit('Write?', z.object({ ok: z.boolean() }), { key: 'ok' });
    ran.push('write');
    return ok.action;
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;

beforeAll(async () => {
  ({ key, jwks, handle, resource } = await jwtProtected(
    createServer({ name: 'diary', version: '1.0.0', providers: [Diary] }),
  ));
});
afterAll(async () => {
  await handle.close();
  await jwks.close();
});

const headers = (bearer: string) => ({
  authorization: `Bearer ${bearer}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});
// The user alice, through the app; and a client whose id is "alice", acting for no user.
const alice = () => sign(key, { iss: ISSUER, aud: resource, sub: 'alice', client_id: 'app' });
const clientNamedAlice = () => sign(key, { iss: ISSUER, aud: resource, client_id: 'alice' });

describe('a token with no sub whose client_id equals a user’s sub gets nothing of that user', () => {
  it("legacy: it cannot use alice's session (404), while alice can", async () => {
    const init = await fetch(handle.url, {
      method: 'POST',
      headers: headers(await alice()),
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
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const read = async (bearer: string) =>
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
          params: { name: 'read', arguments: {} },
        }),
      });
    const before = ran.length;
    const stolen = await read(await clientNamedAlice());
    expect(stolen.status).toBe(404);
    await stolen.text();
    expect(ran.length).toBe(before);
    const own = await read(await alice());
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('dear diary');
  });

  it("2026-07-28: it cannot answer a round of alice's call (requestState bound to her)", async () => {
    const call = async (bearer: string, extra: Record<string, unknown> = {}) => {
      const response = await fetch(handle.url, {
        method: 'POST',
        headers: {
          ...headers(bearer),
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'write',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'write',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
            },
            ...extra,
          },
        }),
      });
      return JSON.parse(await response.text());
    };
    const round = await call(await alice());
    expect(round.result.resultType).toBe('input_required');
    const answer = {
      requestState: round.result.requestState,
      inputResponses: { ok: { action: 'accept', content: { ok: true } } },
    };
    const before = ran.length;
    expect(await call(await clientNamedAlice(), answer)).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(/requestState was issued to another caller/),
      },
    });
    expect(ran.length).toBe(before);
    expect((await call(await alice(), answer)).result.content[0].text).toBe('accept');
  });
});
