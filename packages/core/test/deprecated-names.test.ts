import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  McpFwServer,
  McpServer,
  Tool,
  type Context,
  type InputSettings,
  type ServerOptions,
} from '@mcp-fw/core';
import { serveFromArgs as fromMain } from '@mcp-fw/core/main';
import { serveFromArgs } from '@mcp-fw/core/serve';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';

// The former public names (issue #17, part 5) keep working until they are removed; each test
// shows the old name doing what its replacement does.

class Asker {
  @Tool({ description: 'Asks twice', input: z.object({}) })
  async twice(_: object, ctx: Context) {
    const first = await ctx.elicit('First?', z.object({ a: z.string() }));
    const second = await ctx.elicit('Second?', z.object({ b: z.string() }));
    return [first, second].map((answer) => answer.action).join('+');
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function twiceText(options: Partial<ServerOptions>): Promise<string | undefined> {
  const server = createServer({ name: 'asker', version: '1.0.0', providers: [Asker], ...options });
  const client = await connectTestClient(server, {
    protocolVersion: '2026-07-28',
    capabilities: { elicitation: {} },
    handlers: {
      'elicitation/create': () => ({ action: 'accept', content: { a: 'A', b: 'B' } }),
    },
  });
  clients.push(client);
  return (await client.callTool('twice', {})).content[0].text;
}

describe('deprecated names', () => {
  it('McpServer is McpFwServer', async () => {
    const server = new McpServer({ name: 'old', version: '1.0.0', providers: [Asker] });
    expect(server).toBeInstanceOf(McpFwServer);
    const client = await connectTestClient(server);
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['twice']);
  });

  it('the server option input is read as inputRounds when inputRounds is unset', async () => {
    const gaveUp = 'gave up after 1 rounds of asking the client for input';
    expect(await twiceText({})).toBe('accept+accept');
    expect(await twiceText({ inputRounds: { maxRounds: 1 } })).toBe(gaveUp);
    const settings: InputSettings = { maxRounds: 1 };
    expect(await twiceText({ input: settings })).toBe(gaveUp);
    expect(await twiceText({ inputRounds: {}, input: settings })).toBe('accept+accept');
  });

  it('@mcp-fw/core/main exports the serveFromArgs of @mcp-fw/core/serve', () => {
    expect(fromMain).toBe(serveFromArgs);
  });
});
