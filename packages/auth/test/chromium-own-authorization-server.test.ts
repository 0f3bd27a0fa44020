import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, oauth } from '@mcp-fw/client';
import { loopbackRedirect } from '@mcp-fw/client/node';
import {
  ownAuthorizationServer,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// Issue #36's "Chromium for the consent and the upstream login pages": a person signs in through
// our authorization server in a real browser. @mcp-fw/client connects to the protected server,
// loopbackRedirect() hands the authorization URL to Chromium, and the person's clicks are played
// on the upstream IdP's login page (oidc-provider without registration) and on our own consent
// page (its CSRF token and cookies as a browser keeps them); the redirect to the loopback port
// completes the sign-in. A browser run, so a CI step of its own (vitest.separate.ts).

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let env: OwnAuthorizationServer;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  env = await ownAuthorizationServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe.skipIf(!existsSync(CHROMIUM))(`our authorization server in Chromium (${CHROMIUM})`, () => {
  it('a person signs in at the upstream IdP and allows on our consent page in Chromium; the client calls as that person', async () => {
    const page = await browser.newPage();
    const hosts: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) hosts.push(new URL(frame.url()).origin);
    });
    let consentText = '';
    // What the person does: open the URL, sign in at the IdP, read our consent page and allow.
    const person = async (url: URL) => {
      await page.goto(url.href);
      await page.waitForSelector('input[name="login"]');
      await page.fill('input[name="login"]', 'carol');
      await page.fill('input[name="password"]', 'any password');
      await page.click('button[type="submit"]');
      // The IdP may ask its own consent first (oidc-provider's "Continue"); ours says "Allow".
      for (;;) {
        const allow = page.locator('button[name="decision"][value="allow"]');
        await page.waitForSelector('button[type="submit"]');
        if ((await allow.count()) > 0) {
          consentText = (await page.textContent('body')) ?? '';
          await allow.click();
          return;
        }
        await page.click('button[type="submit"]');
      }
    };
    let personDone: Promise<void> = Promise.resolve();
    const redirect = await loopbackRedirect({
      open: (url) => {
        personDone = person(url);
      },
      timeoutMs: 60_000,
    });
    try {
      const client = await connect(env.resource, {
        auth: oauth({ clientName: 'notes in chromium', ...redirect }),
        timeoutMs: 60_000,
      });
      await personDone;
      const result = await client.callTool('whoami', {});
      const me = JSON.parse((result.content[0] as { text: string }).text);
      expect(me).toMatchObject({ subject: 'carol', upstream: 'dev-idp' });
      expect(me.scopes).toContain('notes:read');
      await client.close();
      // The person saw our consent page naming the client, the person and the scopes.
      expect(consentText).toContain('Allow access?');
      expect(consentText).toContain('notes in chromium');
      expect(consentText).toContain('carol');
      expect(consentText).toContain('notes:read');
      // The browser went from our server to the IdP, back to ours, and ended on the loopback page.
      expect(hosts).toContain(new URL(env.idp.issuer).origin);
      expect(hosts).toContain(env.origin);
      expect(await page.textContent('body')).toContain('Signed in.');
    } finally {
      await redirect.close();
      await page.close();
    }
  }, 120_000);
});
