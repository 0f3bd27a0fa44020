import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, Tool } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';

// Capabilities are negotiated when a client connects, but a server can gain prompts and
// resources later (server.add, mount, a proxy whose upstream answers late). Every list is
// declared up front, so a client connected before the change hears of it.

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

class Tools {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }
}

class Later {
  @Prompt({ description: 'Greets', input: z.object({}) })
  greet() {
    return 'Hello';
  }

  @Resource('notes://today', { description: 'Today' })
  today() {
    return 'nothing yet';
  }
}

describe('a server that gains prompts and resources after a client connected', () => {
  it('a legacy session is told of prompts and resources added after it connected, under capabilities it was given', async () => {
    const server = createServer({ name: 'grows', version: '1', providers: [Tools] });
    const c = await connectTestClient(server, { protocolVersion: LEGACY });
    const capabilities = c.initializeResult.capabilities as Record<string, unknown>;
    expect(capabilities.prompts).toEqual({ listChanged: true });
    expect(capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    server.add(new Later());
    await c.callTool('echo', { text: 'sync' });
    const seen = c.notifications.map((n) => n.method);
    expect(seen).toContain('notifications/prompts/list_changed');
    expect(seen).toContain('notifications/resources/list_changed');
    const listed = (await c.request('prompts/list', {})) as { prompts: { name: string }[] };
    expect(listed.prompts.map((p) => p.name)).toEqual(['greet']);
    await c.close();
  });

  it('a 2026-07-28 listen stream opened before prompts and resources existed reports their list changes', async () => {
    const server = createServer({ name: 'grows', version: '1', providers: [Tools] });
    const c = await connectTestClient(server, { protocolVersion: MODERN });
    const discovered = (await c.rawRequest('server/discover', {
      _meta: { [V]: MODERN, [CAPS]: {} },
    })) as { capabilities: Record<string, unknown> };
    expect(discovered.capabilities.prompts).toEqual({ listChanged: true });
    expect(discovered.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    const listening = c.rawRequest('subscriptions/listen', {
      _meta: { [V]: MODERN, [CAPS]: {} },
      notifications: { promptsListChanged: true, resourcesListChanged: true },
    });
    listening.catch(() => {});
    await c.callTool('echo', { text: 'sync' });
    const ack = c.notifications.find(
      (n) => n.method === 'notifications/subscriptions/acknowledged',
    );
    expect(ack?.params).toMatchObject({
      notifications: { promptsListChanged: true, resourcesListChanged: true },
    });
    server.add(new Later());
    await c.callTool('echo', { text: 'sync' });
    const seen = c.notifications.map((n) => n.method);
    expect(seen).toContain('notifications/prompts/list_changed');
    expect(seen).toContain('notifications/resources/list_changed');
    server.endSubscriptions();
    await listening;
    await c.close();
  });
});
