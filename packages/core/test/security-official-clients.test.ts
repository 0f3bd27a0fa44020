import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, Resource, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import type { AuthOutcome, HttpRequestView } from '@mcp-fw/core/http';

class Notes {
  @Resource('mem://static', { mimeType: 'text/plain' })
  fixed() {
    return 'static';
  }

  @Tool({ description: 'Who is calling', input: z.object({}) })
  whoami(_: object, ctx: Context) {
    return JSON.stringify(ctx.auth);
  }
}

function byToken(req: HttpRequestView): AuthOutcome {
  const user = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '')?.[1];
  return user ? { auth: { sub: user } } : { reject: { message: 'Unauthorized' } };
}

let handle: HttpServerHandle | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await handle?.close();
  handle = undefined;
});

async function connect(
  user: string,
  sessionId?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(handle!.url), {
    requestInit: { headers: { authorization: `Bearer ${user}` } },
    sessionId,
  });
  const client = new Client({ name: `client-${user}`, version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

describe('security with the official SDK 1.x client over Streamable HTTP (issue #15)', () => {
  it("with an authenticate hook: user B's client holding A's session id is told the session does not exist", async () => {
    handle = await serveHttp(createServer({ name: 'notes', version: '1', providers: [Notes] }), {
      port: 0,
      authenticate: byToken,
    });
    const alice = await connect('alice');
    const session = alice.transport.sessionId!;
    expect(session).toBeDefined();
    // The SDK skips initialize when given a session id, as when resuming one.
    const bob = await connect('bob', session);
    await expect(bob.client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow(
      /Session not found/,
    );
    const mine = await alice.client.callTool({ name: 'whoami', arguments: {} });
    expect((mine.content as { text: string }[])[0].text).toBe('{"sub":"alice"}');
  });

  it('one legacy session subscribing to URIs that match nothing gets resource-not-found (-32002); a served URI subscribes', async () => {
    handle = await serveHttp(createServer({ name: 'notes', version: '1', providers: [Notes] }), {
      port: 0,
      authenticate: byToken,
    });
    const { client } = await connect('alice');
    for (let i = 0; i < 20; i++) {
      await expect(client.subscribeResource({ uri: `nothing://${i}` })).rejects.toMatchObject({
        code: -32002,
      });
    }
    await expect(client.subscribeResource({ uri: 'mem://static' })).resolves.toEqual({});
  });
});
