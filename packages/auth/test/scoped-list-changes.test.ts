import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, Prompt, Resource, Tool, type McpFwServer } from '@mcp-fw/core';
import type { HttpServerHandle } from '@mcp-fw/core/node';
import { listedWithScopes } from '@mcp-fw/auth';
import { type jwksServer, sign, type SigningKey } from './support/issuer.ts';
import { jwtProtected } from './support/protected.ts';

// Issue #30, scope 6 ("list changes deliver only what the principal's scopes allow to read"):
// with `listed: listedWithScopes` a read-only token's lists never show the admin members, yet
// it was told each time one of them was added, hidden or removed (legacy list_changed, and the
// 2026-07-28 listen stream's list changes) — every change went to every client.

const ISSUER = 'https://issuer.test';

class Ledger {
  @Tool({ description: 'Reads the ledger', input: z.object({}), scopes: ['ledger:read'] })
  read() {
    return 'read';
  }

  @Tool({ description: 'Rewrites history', input: z.object({}), scopes: ['ledger:admin'] })
  rewrite() {
    return 'rewritten';
  }

  @Tool({ description: 'Open to every reader', input: z.object({}), scopes: ['ledger:read'] })
  ping() {
    return 'pong';
  }

  @Prompt({ description: 'Audits', scopes: ['ledger:admin'] })
  audit() {
    return 'audit';
  }

  @Resource('ledger://admin', { description: 'Admin ledger', scopes: ['ledger:admin'] })
  admin() {
    return 'admin';
  }
}

class Later {
  @Tool({ description: 'Added later, for admins', input: z.object({}), scopes: ['ledger:admin'] })
  purge() {
    return 'purged';
  }
}

let key: SigningKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let handle: HttpServerHandle;
let resource: string;
let server: McpFwServer;

beforeAll(async () => {
  server = createServer({
    name: 'ledger',
    version: '1.0.0',
    providers: [Ledger],
    listed: listedWithScopes,
  });
  ({ key, jwks, handle, resource } = await jwtProtected(server));
});
afterAll(async () => {
  await handle.close();
  await jwks.close();
});

type Heard = string[];

/** A connected official client that records every list_changed it is told, by list. */
async function watcher(scope: string, era: 'legacy' | 'modern') {
  const bearer = await sign(key, { iss: ISSUER, aud: resource, sub: scope, scope });
  const client = new Client(
    { name: 'watcher', version: '1.0.0' },
    era === 'modern'
      ? { versionNegotiation: { mode: 'auto' } }
      : { supportedProtocolVersions: ['2025-11-25'] },
  );
  const heard: Heard = [];
  for (const list of ['tools', 'prompts', 'resources'] as const)
    client.setNotificationHandler(`notifications/${list}/list_changed`, () => {
      heard.push(list);
    });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(handle.url), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  const subscription =
    era === 'modern'
      ? await client.listen({
          toolsListChanged: true,
          promptsListChanged: true,
          resourcesListChanged: true,
        })
      : undefined;
  if (era === 'legacy') {
    // The standalone GET stream carries unsolicited notifications: wait until it is open.
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    heard,
    version: () => client.getNegotiatedProtocolVersion(),
    async close() {
      await subscription?.close();
      await client.close();
    },
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['legacy', 'modern'] as const)(
  'list changes of members a token cannot see (%s)',
  (era) => {
    it('a read-only token is not told of changes to members its scopes hide; an admin token and changes it can see are', async () => {
      const reader = await watcher('ledger:read', era);
      const admin = await watcher('ledger:read ledger:admin', era);
      try {
        expect(reader.version()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
        // Admin-only changes: hide and show a tool, hide a prompt and a resource, add a tool.
        server.tools.disable('rewrite');
        server.tools.enable('rewrite');
        server.prompts.disable('audit');
        server.resources.disable('ledger://admin');
        server.add(new Later());
        server.resources.enable('ledger://admin');
        // A change without a registry change (a template's list grew) concerns those who see
        // at least one of the list's members: here only the admin resource.
        server.resources.changed();
        await until(() => admin.heard.length === 7, 'the admin to hear the 7 admin-only changes');
        expect(admin.heard).toEqual([
          'tools',
          'tools',
          'prompts',
          'resources',
          'tools',
          'resources',
          'resources',
        ]);
        // Then a change the reader can see: it is told of that one, and only that one.
        server.tools.disable('ping');
        await until(() => reader.heard.length >= 1, 'the reader to hear the ping change');
        await until(() => admin.heard.length === 8, 'the admin to hear the ping change');
        await new Promise((r) => setTimeout(r, 200));
        expect(reader.heard).toEqual(['tools']);
      } finally {
        server.tools.enable('ping');
        server.prompts.enable('audit');
        server.resources.enable('ledger://admin');
        server.tools.remove('purge');
        await reader.close();
        await admin.close();
      }
    });
  },
);
