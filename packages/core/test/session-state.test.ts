import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type Context, createServer, type McpFwServer, Tool } from '@mcp-fw/core';
import { createHttpHandler, type McpHttpHandler } from '@mcp-fw/core/http';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';

// Issue 29 (FastMCP's topics): ctx.state, per session, bounded, in both eras from one handler.
class Cart {
  @Tool({ description: 'Adds an item to the cart', input: z.object({ item: z.string() }) })
  async add({ item }: { item: string }, ctx: Context) {
    const cart = (await ctx.state.get<string[]>('cart')) ?? [];
    cart.push(item);
    await ctx.state.set('cart', cart);
    return cart.join(', ');
  }

  @Tool({ description: 'The cart', input: z.object({}) })
  async show(_args: object, ctx: Context) {
    const cart = await ctx.state.get<string[]>('cart');
    // A fresh copy each time: changing it changes nothing stored.
    cart?.push('not stored');
    return JSON.stringify((await ctx.state.get('cart')) ?? null);
  }

  @Tool({ description: 'Empties the cart', input: z.object({}) })
  async clear(_args: object, ctx: Context) {
    return String(await ctx.state.delete('cart'));
  }

  @Tool({
    description: 'Stores a note under a key',
    input: z.object({ key: z.string(), text: z.string() }),
  })
  async note({ key, text }: { key: string; text: string }, ctx: Context) {
    await ctx.state.set(key, { text });
    return 'noted';
  }

  @Tool({ description: 'Tries to store a function', input: z.object({}) })
  async bad(_args: object, ctx: Context) {
    await ctx.state.set('fn', () => 1);
    return 'stored';
  }
}

const server = (limits?: { maxKeys?: number; maxBytes?: number }): McpFwServer =>
  createServer({
    name: 'cart',
    version: '1.0.0',
    providers: [Cart],
    limits: { sessionState: limits },
  });

const textOf = (result: { content: { text?: string }[] }) =>
  result.content.map((c) => c.text).join('');

let clients: TestClient[] = [];
let handlers: McpHttpHandler[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(handlers.map((h) => h.close()));
  clients = [];
  handlers = [];
});

async function connect(s: McpFwServer, protocolVersion: string): Promise<TestClient> {
  const client = await connectTestClient(s, { protocolVersion });
  clients.push(client);
  return client;
}

describe.each(['2025-11-25', '2024-11-05', '2026-07-28'])('ctx.state under %s', (revision) => {
  it('no session state on ctx (FastMCP set_state/get_state): ctx.state keeps JSON per session, one handler code', async () => {
    const s = server();
    const one = await connect(s, revision);
    const two = await connect(s, revision);
    expect(textOf(await one.callTool('add', { item: 'milk' }))).toBe('milk');
    expect(textOf(await one.callTool('add', { item: 'eggs' }))).toBe('milk, eggs');
    expect(textOf(await one.callTool('show', {}))).toBe('["milk","eggs"]');
    // Another session (connection) has its own.
    expect(textOf(await two.callTool('show', {}))).toBe('null');
    expect(textOf(await two.callTool('add', { item: 'tea' }))).toBe('tea');
    expect(textOf(await one.callTool('clear', {}))).toBe('true');
    expect(textOf(await one.callTool('clear', {}))).toBe('false');
    expect(textOf(await one.callTool('show', {}))).toBe('null');
    expect(textOf(await two.callTool('show', {}))).toBe('["tea"]');
  });

  it('is bounded: refusals name limits.sessionState.maxKeys and maxBytes, and non-JSON values are refused', async () => {
    const s = server({ maxKeys: 2, maxBytes: 200 });
    const client = await connect(s, revision);
    expect(textOf(await client.callTool('note', { key: 'a', text: 'x' }))).toBe('noted');
    expect(textOf(await client.callTool('note', { key: 'b', text: 'y' }))).toBe('noted');
    const keys = await client.callTool('note', { key: 'c', text: 'z' });
    expect(keys.isError).toBe(true);
    expect(textOf(keys)).toBe(
      "ctx.state refused to set 'c': the session already holds limits.sessionState.maxKeys (2) keys. " +
        'Fix: delete what the session no longer needs (ctx.state.delete), or raise limits.sessionState.maxKeys.',
    );
    // Replacing a key is no new key; a value too big for the bytes left is refused.
    const bytes = await client.callTool('note', { key: 'a', text: 'x'.repeat(300) });
    expect(bytes.isError).toBe(true);
    expect(textOf(bytes)).toContain('limits.sessionState.maxBytes (200 bytes');
    expect(textOf(await client.callTool('note', { key: 'a', text: 'still fits' }))).toBe('noted');
    const bad = await client.callTool('bad', {});
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("ctx.state.set('fn'): function is not a JSON value");
  });
});

describe('ctx.state under 2026-07-28 over HTTP (no sessions)', () => {
  const post = (mcp: McpHttpHandler, id: number, args: object, who?: string) =>
    mcp
      .fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': (args as { name: string }).name,
            ...(who ? { authorization: `Bearer ${who}` } : {}),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              ...args,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        }),
      )
      .then(async (res) => textOf((JSON.parse(await res.text()) as { result: never }).result));

  it('the session is the authenticated caller: kept across requests, apart per caller, refused without one', async () => {
    const mcp = createHttpHandler(server(), {
      authenticate: (req) => {
        const token = req.header('authorization')?.replace('Bearer ', '');
        return token ? { auth: { sub: token } } : {};
      },
    });
    handlers.push(mcp);
    expect(await post(mcp, 1, { name: 'add', arguments: { item: 'milk' } }, 'ada')).toBe('milk');
    expect(await post(mcp, 2, { name: 'add', arguments: { item: 'eggs' } }, 'ada')).toBe(
      'milk, eggs',
    );
    expect(await post(mcp, 3, { name: 'show', arguments: {} }, 'bob')).toBe('null');
    expect(await post(mcp, 4, { name: 'show', arguments: {} })).toBe(
      'ctx.state has no session to keep state in: this stateless HTTP request belongs to no session, ' +
        'and it is not authenticated, so there is no caller to keep it for. Fix: protect the server (the auth ' +
        'options of serveHttp: state is then kept per authenticated caller), or carry what the tool needs in its arguments.',
    );
  });
});

describe('a connection without a given id', () => {
  it('a connection that never read its session id ends without minting one (no web crypto on the way out); one that did mints it once', async () => {
    const minted = vi.spyOn(globalThis.crypto, 'randomUUID');
    try {
      const idle = await connectTestClient(server(), { protocolVersion: '2025-11-25' });
      await idle.close();
      expect(minted).not.toHaveBeenCalled();

      const busy = await connectTestClient(server(), { protocolVersion: '2025-11-25' });
      expect(textOf(await busy.callTool('add', { item: 'milk' }))).toBe('milk');
      await busy.close();
      expect(minted).toHaveBeenCalledTimes(1);
    } finally {
      minted.mockRestore();
    }
  });
});
