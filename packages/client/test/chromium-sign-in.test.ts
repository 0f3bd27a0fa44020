import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { connect, oauth } from '@mcp-fw/client';
import { loopbackRedirect } from '@mcp-fw/client/node';
import { onFreePort } from '../../../test-support/ports.ts';

// One interactive authorization-code sign-in, end to end, in a real browser: @mcp-fw/client
// connects to a protected mcp-fw server, loopbackRedirect() hands the authorization URL to
// Chromium (instead of the system browser), a person's clicks are played on oidc-provider's own
// login and consent pages, and the browser's redirect to the loopback port completes the
// sign-in. A browser run, so a CI step of its own (vitest.separate.ts).

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Lists notes', input: z.object({}) })
  list(_: object, ctx: Context) {
    return `notes of ${authInfo(ctx).subject}`;
  }
}

let browser: Browser;
let issuerServer: Server;
let mcp: HttpServerHandle;
let resource: string;

/**
 * oidc-provider with its own development login and consent pages (real HTML forms), issuing
 * tokens for `audience()` (read when a token is asked for: the resource is known once it listens).
 */
async function interactiveAuthorizationServer(audience: () => string): Promise<string> {
  issuerServer = createHttpServer();
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] },
    scopes: ['openid', 'offline_access', 'notes:read'],
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? audience(),
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'notes:read',
          audience: audience(),
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  issuerServer.on('request', provider.callback());
  return issuer;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  const issuer = await interactiveAuthorizationServer(() => resource);
  // The resource names its port, so the port is chosen before the server listens; a port taken
  // meanwhile is tried again on a fresh one.
  mcp = await onFreePort((port) => {
    resource = `http://127.0.0.1:${port}/mcp`;
    return serveHttp(createServer({ name: 'notes', version: '1.0.0', providers: [Notes] }), {
      port,
      ...oauthResource({
        resource,
        authorizationServers: [issuer],
        scopesSupported: ['notes:read'],
        verifier: jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience: resource }),
      }),
    });
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  issuerServer?.closeAllConnections();
  await new Promise((resolve) => issuerServer?.close(resolve));
});

describe.skipIf(!existsSync(CHROMIUM))(`sign-in in Chromium (${CHROMIUM})`, () => {
  it('a person signs in and consents in Chromium; the redirect to the loopback port completes the connection', async () => {
    const page = await browser.newPage();
    const seen: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname);
    });
    // What the person does: open the URL, sign in, allow. The client never sees the page.
    const person = async (url: URL) => {
      await page.goto(url.href);
      await page.fill('input[name="login"]', 'alice');
      await page.fill('input[name="password"]', 'any password');
      await page.click('button[type="submit"]');
      await page.waitForSelector('text=Authorize');
      await page.click('button[type="submit"]');
    };
    let personDone: Promise<void> = Promise.resolve();
    const redirect = await loopbackRedirect({
      open: (url) => {
        personDone = person(url);
      },
      timeoutMs: 60_000,
    });
    try {
      const client = await connect(resource, {
        auth: oauth({ clientName: 'notes in chromium', ...redirect }),
        timeoutMs: 60_000,
      });
      await personDone;
      expect((await client.callTool('list', {})).content).toEqual([
        { type: 'text', text: 'notes of alice' },
      ]);
      await client.close();
      // The browser went through the login and consent pages and ended on the loopback page.
      expect(seen.filter((p) => p.startsWith('/interaction/')).length).toBeGreaterThanOrEqual(2);
      expect(seen.at(-1)).toBe('/callback');
      expect(await page.textContent('body')).toContain('Signed in.');
    } finally {
      await redirect.close();
      await page.close();
    }
  }, 120_000);
});
