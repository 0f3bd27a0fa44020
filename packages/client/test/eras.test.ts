import { connect, NegotiationError } from '@mcp-fw/client';
import { JsonRpcError, LEGACY_REVISIONS } from '@mcp-fw/core/transport';
import { describe, expect, it } from 'vitest';
import { fixtureServer } from './support/fixture-server.ts';
import { initialized, scriptedServer } from './support/scripted-server.ts';

// Era negotiation against servers in this process (the real mcp-fw server, and scripted peers
// for the servers it is not: legacy-only, modern-only, lying about versions).

describe('era negotiation', () => {
  it('negotiates 2026-07-28 through server/discover when the server offers it', async () => {
    const client = await connect(fixtureServer());
    expect([client.era, client.protocolVersion, client.transport]).toEqual([
      'modern',
      '2026-07-28',
      'in-memory',
    ]);
    expect(client.server.serverInfo).toMatchObject({ name: 'fixture', version: '1.2.3' });
    expect(client.server.instructions).toBe('A desk for the client tests.');
    expect(client.server.capabilities).toHaveProperty('tools');
    await client.close();
  });

  it.each(LEGACY_REVISIONS)(
    'a pinned legacy revision (%s) is offered at initialize and kept',
    async (revision) => {
      const client = await connect(fixtureServer(), { protocolVersion: revision });
      expect([client.era, client.protocolVersion]).toEqual(['legacy', revision]);
      const sum = await client.callTool('add', { a: 2, b: 3 });
      expect(JSON.parse(sum.content[0].text as string)).toMatchObject({ sum: 5 });
      await client.close();
    },
  );

  it('falls back to initialize, offering the latest legacy revision, when server/discover is refused', async () => {
    const server = scriptedServer({
      initialize: initialized('2025-06-18'),
      'tools/list': () => ({ tools: [] }),
    });
    const client = await connect(server);
    expect([client.era, client.protocolVersion]).toEqual(['legacy', '2025-06-18']);
    expect(server.methods).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  it('a cached discover result connects in 2026-07-28 with no round trip', async () => {
    const server = scriptedServer({ 'tools/list': () => ({ resultType: 'complete', tools: [] }) });
    const client = await connect(server, {
      discover: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'cached', version: '9' } },
      },
    });
    expect(server.methods).toEqual([]);
    expect([client.era, client.server.serverInfo?.name]).toEqual(['modern', 'cached']);
    await client.listTools();
    expect(server.methods).toEqual(['tools/list']);
    await client.close();
  });

  it('-32022 naming a revision both speak is retried once with it', async () => {
    let first = true;
    const strict = scriptedServer({
      'server/discover': () => {
        if (first) {
          first = false;
          throw new JsonRpcError(-32022, 'Unsupported protocol version', {
            supported: ['2026-07-28'],
            requested: '2026-07-28',
          });
        }
        return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
      },
    });
    const client = await connect(strict, { protocolVersion: '2026-07-28' });
    expect(strict.methods).toEqual(['server/discover', 'server/discover']);
    expect(client.era).toBe('modern');
    await client.close();
  });

  it('a server answering initialize with a revision the client does not speak is refused, naming it', async () => {
    const server = scriptedServer({ initialize: initialized('1999-01-01') });
    const failure = await connect(server).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NegotiationError);
    expect((failure as Error).message).toContain('"1999-01-01"');
    expect((failure as Error).message).toContain('2025-11-25');
  });

  it('a pinned legacy revision the server answers differently is refused, naming both', async () => {
    const server = scriptedServer({ initialize: initialized('2025-11-25') });
    const failure = await connect(server, { protocolVersion: '2025-03-26' }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(NegotiationError);
    expect((failure as Error).message).toMatch(/2025-11-25, not the pinned 2025-03-26/);
  });

  it('pinning 2026-07-28 against a legacy-only server fails with a NegotiationError, not a silent downgrade', async () => {
    const server = scriptedServer({ initialize: initialized('2025-11-25') });
    const failure = await connect(server, { protocolVersion: '2026-07-28' }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(NegotiationError);
    expect((failure as Error).message).toContain('does not serve protocol revision 2026-07-28');
    expect(server.methods).toEqual(['server/discover']);
  });

  it('an unknown pinned revision fails before anything is sent', async () => {
    const server = scriptedServer({});
    const failure = await connect(server, { protocolVersion: '2030-01-01' }).catch(
      (e: unknown) => e,
    );
    expect((failure as Error).message).toContain(
      '"2030-01-01" is not a revision this client speaks',
    );
    expect(server.methods).toEqual([]);
  });

  it('a stdio-like server that never answers server/discover is taken for legacy after probeTimeoutMs', async () => {
    const server = scriptedServer({
      'server/discover': () => new Promise(() => {}),
      initialize: initialized('2025-11-25'),
    });
    const started = Date.now();
    const client = await connect(server, { probeTimeoutMs: 100 });
    expect(client.era).toBe('legacy');
    expect(Date.now() - started).toBeLessThan(2000);
    await client.close();
  });
});
