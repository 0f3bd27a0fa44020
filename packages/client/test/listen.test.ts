import { connect, type Change } from '@mcp-fw/client';
import { serveHttp } from '@mcp-fw/core/node';
import { describe, expect, it } from 'vitest';
import { fixtureServer } from './support/fixture-server.ts';

// One listen() for the 2026-07-28 subscriptions/listen stream and the legacy notifications,
// against the real mcp-fw server, in memory and over HTTP.

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const CASES = [
  ['in memory', '2026-07-28'],
  ['in memory', '2025-11-25'],
  ['over HTTP', '2026-07-28'],
  ['over HTTP', '2025-11-25'],
] as const;

describe.each(CASES)('listen() %s under %s', (where, protocolVersion) => {
  it('hears the tool list change and the subscribed resource update, and nothing after close()', async () => {
    const server = fixtureServer();
    const http = where === 'over HTTP' ? await serveHttp(server, { port: 0 }) : undefined;
    const client = await connect(http ? http.url : server, { protocolVersion });
    const changes: Change[] = [];
    const listening = await client.listen(
      { tools: true, resourceUris: ['memo://today'] },
      (change) => changes.push(change),
    );
    expect(listening.acknowledged).toEqual({ tools: true, resourceUris: ['memo://today'] });
    expect(listening.active).toBe(true);

    server.tools.disable('one');
    server.resources.updated('memo://today');
    server.resources.updated('memo://elsewhere');
    server.prompts.disable('explain');
    await until(() => changes.length >= 2);
    expect(changes.map((c) => [c.method, c.params.uri])).toEqual([
      ['notifications/tools/list_changed', undefined],
      ['notifications/resources/updated', 'memo://today'],
    ]);

    await listening.close();
    expect(listening.active).toBe(false);
    server.tools.disable('two');
    await new Promise((r) => setTimeout(r, 100));
    expect(changes).toHaveLength(2);
    await client.close();
    await http?.close();
  });
});

describe.each(CASES)('concurrent listen() subscriptions %s under %s', (where, protocolVersion) => {
  it('concurrent listen() subscriptions do not share events', async () => {
    const server = fixtureServer();
    const http = where === 'over HTTP' ? await serveHttp(server, { port: 0 }) : undefined;
    const client = await connect(http ? http.url : server, { protocolVersion });
    const heard = { a: [] as string[], b: [] as string[], c: [] as string[] };
    const note = (who: keyof typeof heard) => (change: Change) =>
      heard[who].push(`${change.method} ${String(change.params.uri ?? '')}`.trim());
    // Opened together: each acknowledgement must reach its own subscription.
    const [a, b, c] = await Promise.all([
      client.listen({ tools: true, resourceUris: ['memo://today'] }, note('a')),
      client.listen({ tools: true, resourceUris: ['memo://today'] }, note('b')),
      client.listen({ prompts: true }, note('c')),
    ]);
    expect([a.acknowledged, b.acknowledged, c.acknowledged]).toEqual([
      { tools: true, resourceUris: ['memo://today'] },
      { tools: true, resourceUris: ['memo://today'] },
      { prompts: true },
    ]);

    server.tools.disable('one');
    await until(() => heard.a.length >= 1 && heard.b.length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    // One change, heard once by each subscription that asked for it.
    expect(heard).toEqual({
      a: ['notifications/tools/list_changed'],
      b: ['notifications/tools/list_changed'],
      c: [],
    });

    // Closing one subscription leaves the other's resource subscription in place.
    await a.close();
    server.resources.updated('memo://today');
    await until(() => heard.b.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(heard.b).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/updated memo://today',
    ]);
    expect(heard.a).toHaveLength(1);

    await Promise.all([b.close(), c.close()]);
    await client.close();
    await http?.close();
  });
});
