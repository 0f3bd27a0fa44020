import { afterEach, describe, expect, it } from 'vitest';
import { createServer, Resource, type AuditEntry } from '@mcp-fw/core';
import type { RawResponse, Surface } from './support/http-surfaces.ts';
import { envelope, modernPost, serve } from './support/security-http.ts';

// Issue #30 row 2: behind a proxy every unauthenticated client shares the proxy's address, so
// per-client limits keyed on it let one client use up everyone's share. `trustedProxies` says
// whose X-Forwarded-For / Forwarded is believed; without it the server says what to do. The
// test client on 127.0.0.1 plays the proxy; the addresses it forwards play its clients.

class Feeds {
  @Resource('mem://static', { mimeType: 'text/plain' })
  fixed() {
    return 'static';
  }
}

let surface: Surface | undefined;
const open: RawResponse[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) r.abort();
  await surface?.close();
  surface = undefined;
});

function feeds(entries: AuditEntry[] = []) {
  return createServer({
    name: 'feeds',
    version: '1',
    providers: [Feeds],
    limits: { maxListenStreamsPerClient: 2 },
    audit: { sink: (e) => entries.push(e) },
  });
}

/** A 2026-07-28 listen stream from the client `forwarded` names. */
function listen(s: Surface, id: number, forwarded: Record<string, string>) {
  return modernPost(
    s,
    {
      id,
      method: 'subscriptions/listen',
      params: { _meta: envelope(), notifications: { resourceSubscriptions: [] } },
    },
    forwarded,
  );
}

async function held(s: Surface, id: number, forwarded: Record<string, string>) {
  const res = await listen(s, id, forwarded);
  expect(res.status).toBe(200);
  open.push(res);
  await res.nextEvent();
}

const from = (client: string) => ({ 'x-forwarded-for': `${client}, 127.0.0.1` });

describe('behind a proxy: trustedProxies (issue #30)', () => {
  it('behind the balancer, one unauthenticated client opens listen streams up to its share: with trustedProxies the others behind the same proxy keep theirs', async () => {
    const entries: AuditEntry[] = [];
    surface = await serve(feeds(entries), { trustedProxies: ['127.0.0.0/8', '::1'] });
    await held(surface, 1, from('10.0.0.66'));
    await held(surface, 2, from('10.0.0.66'));
    const refused = await listen(surface, 3, from('10.0.0.66'));
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.text()).error.data.limit).toBe('maxListenStreamsPerClient');
    // Another client behind the same proxy: its own share, not the attacker's.
    await held(surface, 4, from('10.0.0.77'));
    await held(surface, 5, { forwarded: 'for=10.0.0.88;proto=http, for=127.0.0.1' });
    await held(surface, 6, { forwarded: 'for="[2001:db8::7]:4711"' });
    // The audit log names the client, not the proxy.
    expect(entries.find((e) => e.outcome === 'refused')?.address).toBe('10.0.0.66');
  });

  it('a client that sends X-Forwarded-For itself cannot pass for another: only trusted hops are skipped', async () => {
    surface = await serve(feeds(), { trustedProxies: ['10.9.9.9'] });
    // The connection comes from 127.0.0.1, not a trusted proxy: its headers are not believed.
    await held(surface, 1, from('10.0.0.1'));
    await held(surface, 2, from('10.0.0.2'));
    expect((await listen(surface, 3, from('10.0.0.3'))).status).toBe(429);
  });

  it('without trustedProxies, the first request that shows a proxy tells the operator what to set, once', async () => {
    const warnings: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      surface = await serve(feeds(), {});
      await held(surface, 1, {});
      expect(warnings.filter((w) => w.includes('trustedProxies'))).toEqual([]);
      await held(surface, 2, from('10.0.0.66'));
      expect((await listen(surface, 3, from('10.0.0.77'))).status).toBe(429);
    } finally {
      console.error = original;
    }
    const told = warnings.filter((w) => w.includes('trustedProxies'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/through a proxy at .*127\.0\.0\.1.*Set trustedProxies/);
    expect(told[0]).toContain('MCP_TRUSTED_PROXIES');
  });

  it('an entry of trustedProxies that is not an address or CIDR fails at startup, naming it', async () => {
    await expect(serve(feeds(), { trustedProxies: ['10.0.0.0/33'] })).rejects.toThrow(
      /trustedProxies: "10\.0\.0\.0\/33" is not an IP address or CIDR/,
    );
    await expect(serve(feeds(), { trustedProxies: ['proxy.local'] })).rejects.toThrow(
      /trustedProxies: "proxy\.local"/,
    );
  });
});
