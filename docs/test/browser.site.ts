// The built site in a real browser: Chromium from the distribution's packages
// (scripts/system-packages.sh installs it), driven headless by playwright-core, over the site
// served on loopback. Every page loads without a console error, search finds a known term, the
// sidebar navigates at desktop and phone widths, and screenshots land in docs/.artefacts/.
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../.vitepress/sidebar.ts';
import { DOCS_ROOT } from './pages.ts';
import { htmlFiles, serveSite, urlOf } from './static-server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = join(DOCS_ROOT, '.vitepress', 'dist');
const ARTEFACTS = join(DOCS_ROOT, '.artefacts');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every page of the built site but the 404 page, the home page first. */
function paths(): string[] {
  return htmlFiles(DIST)
    .map((file) => urlOf(DIST, file))
    .filter((path) => path !== '/404')
    .sort();
}

describe.skipIf(!existsSync(CHROMIUM))(`the built site in Chromium (${CHROMIUM})`, () => {
  let browser: Browser;
  let site: { url: string; server: Server };

  beforeAll(async () => {
    expect(existsSync(join(DIST, 'index.html')), 'run `npm run docs:build` first').toBe(true);
    mkdirSync(ARTEFACTS, { recursive: true });
    site = await serveSite(DIST);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  interface Opened {
    readonly page: Page;
    /** Console errors, page errors and failed requests, each with the path it happened on. */
    readonly errors: string[];
    /** Loads another path in the same page, waiting for its diagrams. */
    visit(path: string): Promise<void>;
  }

  /** Opens `path` in a new page that records console errors, failed requests and page errors. */
  async function open(path: string, viewport = DESKTOP): Promise<Opened> {
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    let current = path;
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${current}: console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${current}: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400)
        errors.push(`${current}: ${response.status()} ${response.url()}`);
    });
    const visit = async (next: string) => {
      current = next;
      await page.goto(`${site.url}${next}`, { waitUntil: 'load' });
      // Mermaid draws after load: wait until every diagram has its SVG (or has failed, logged).
      // Three pages draw at once and a loaded CI machine can take tens of seconds per diagram
      // page, so the wait is generous and a timeout names the page.
      await page
        .waitForFunction(
          "[...document.querySelectorAll('.mermaid')].every((d) => d.querySelector('svg'))",
          undefined,
          { timeout: 120_000 },
        )
        .catch((error: Error) => {
          throw new Error(`${next}: its diagrams were not drawn: ${error.message}`);
        });
    };
    await visit(path);
    return { page, errors, visit };
  }

  it('loads every page, the API reference included, without a console error, and draws its diagrams and charts', async () => {
    const all = paths();
    expect(all).toEqual(expect.arrayContaining(['/', ...PAGES.map((p) => p.link)]));
    expect(all.length).toBeGreaterThan(100);
    // A few pages at once: each full load is mostly waiting on the browser's own work.
    const queue = [...all];
    const errors: string[] = [];
    const worker = async () => {
      const { page, errors: found, visit } = await open('/');
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        await visit(path);
        expect(await page.locator('h1').count(), `${path} has a heading`).toBeGreaterThan(0);
        if (path === '/guide/protocol-eras')
          expect(await page.locator('.mermaid svg').count()).toBe(3);
        if (path === '/guide/architecture')
          expect(await page.locator('.mermaid svg').count()).toBe(1);
        if (path === '/performance')
          expect(await page.locator('.bench-chart svg rect').count()).toBeGreaterThan(12);
      }
      errors.push(...found);
      await page.close();
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(errors).toEqual([]);
  }, 1_200_000);

  // The row "the site: long code lines cut off at 1280 px".
  it('shows every code line whole at 1280 px: a long line wraps inside its block (or scrolls with a visible scrollbar), never past the column', async () => {
    const { page, errors, visit } = await open('/quick-start');
    let blocks = 0;
    for (const path of [
      '/quick-start',
      '/guide/deployment',
      '/guide/examples',
      '/integrations/chatgpt',
    ]) {
      await visit(path);
      // In the page (a string: these tests are compiled without the DOM's types).
      const found =
        (await page.evaluate(`[...document.querySelectorAll("div[class*='language-'] pre")].map((pre) => {
        const box = pre.getBoundingClientRect();
        const code = pre.querySelector('code');
        // Where the text really ends: the right edge of its last character box.
        const range = document.createRange();
        range.selectNodeContents(code);
        const textRight = Math.max(...[...range.getClientRects()].map((r) => r.right));
        return {
          text: code.textContent.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), ''),
          fits: pre.scrollWidth <= pre.clientWidth + 1 && textRight <= box.right + 1,
          scrollbar: pre.scrollWidth > pre.clientWidth && pre.offsetHeight - pre.clientHeight > 0,
          inViewport: box.right <= window.innerWidth,
        };
      })`)) as { text: string; fits: boolean; scrollbar: boolean; inViewport: boolean }[];
      blocks += found.length;
      for (const block of found) {
        expect(block.fits || block.scrollbar, `${path}: ${block.text}`).toBe(true);
        expect(block.inViewport, `${path}: ${block.text}`).toBe(true);
      }
    }
    expect(blocks).toBeGreaterThan(10);
    await page.screenshot({ path: join(ARTEFACTS, 'long-code-desktop.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('finds a known term with the local search', async () => {
    const { page, errors } = await open('/');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('.VPLocalSearchBox input').fill('requestStateKey');
    const results = page.locator('.VPLocalSearchBox .result');
    await results.first().waitFor();
    const hrefs = await results.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining([expect.stringMatching(/\/guide\/context/)]));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('navigates through the sidebar at desktop width, switches to dark mode, and screenshots the home page and a guide', async () => {
    const { page, errors } = await open('/');
    await page.screenshot({ path: join(ARTEFACTS, 'home-desktop.png') });
    await page.locator('.VPHero .VPButton.brand').click();
    await page.waitForURL(/\/quick-start$/);
    await page.locator('.VPSidebar a', { hasText: 'Tools' }).first().click();
    await page.waitForURL(/\/guide\/tools$/);
    await page.locator('h1', { hasText: 'Tools' }).waitFor();
    await page.locator('.VPSidebarItem.is-active', { hasText: 'Tools' }).waitFor();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(ARTEFACTS, 'guide-tools-desktop.png') });
    // Dark mode: the switch darkens the page and the diagrams are drawn again in dark colours.
    await page.locator('.VPSidebar a', { hasText: 'Protocol eras' }).first().click();
    await page.locator('.mermaid svg').nth(2).waitFor();
    const light = await page.locator('.mermaid').first().innerHTML();
    await page.locator('.VPNavBar .VPSwitchAppearance').locator('visible=true').first().click();
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await expect.poll(() => page.locator('.mermaid').first().innerHTML()).not.toBe(light);
    expect(await page.locator('.mermaid svg').count()).toBe(3);
    await page.locator('.mermaid').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTEFACTS, 'protocol-eras-dark-desktop.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('navigates through the menu at phone width, and screenshots the home page and a guide', async () => {
    const { page, errors } = await open('/', PHONE);
    await page.screenshot({ path: join(ARTEFACTS, 'home-phone.png') });
    expect(await page.locator('.VPSidebar').isVisible()).toBe(false);
    await page.goto(`${site.url}/quick-start`, { waitUntil: 'networkidle' });
    await page.locator('.VPLocalNav button.menu').click();
    await page.locator('.VPSidebar a', { hasText: 'Tools' }).first().click();
    await page.waitForURL(/\/guide\/tools$/);
    await page.locator('h1', { hasText: 'Tools' }).waitFor();
    // The menu closes itself on navigation: the screenshot waits until its backdrop is gone.
    await page.locator('.VPBackdrop').waitFor({ state: 'detached' });
    await page.screenshot({ path: join(ARTEFACTS, 'guide-tools-phone.png') });
    for (const shot of ['home-desktop', 'guide-tools-desktop', 'home-phone', 'guide-tools-phone'])
      expect(existsSync(join(ARTEFACTS, `${shot}.png`)), shot).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
