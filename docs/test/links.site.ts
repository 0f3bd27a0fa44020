// Every internal link of the built site (docs/.vitepress/dist, `npm run docs:build`) leads to a
// page that exists, and every #anchor to an element with that id on it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFor, htmlFiles, urlOf } from './static-server.ts';
import { PAGES } from '../.vitepress/sidebar.ts';
import { CHANGELOG, PACKAGES, REPOSITORY } from '../.vitepress/links.ts';
import { REPOSITORY_URL } from '../../packages/create-mcp-server/src/templates.ts';
import { DOCS_ROOT } from './pages.ts';

const DIST = join(DOCS_ROOT, '.vitepress', 'dist');

/** The ids in a page: what its anchors may point to. */
function idsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeURIComponent(m[1])));
}

describe('the built site', () => {
  const files = htmlFiles(DIST);

  it('has the guide, the API reference and the files for assistants', () => {
    expect(files.length).toBeGreaterThan(40);
    for (const path of [
      '/quick-start',
      '/guide/tools',
      '/api/',
      '/performance',
      '/llms.txt',
      '/llms-full.txt',
    ])
      expect(fileFor(DIST, path), path).toBeDefined();
    const llms = readFileSync(join(DIST, 'llms.txt'), 'utf8');
    expect(llms).toMatch(/^# mcp-fw\n\n> /);
    expect(llms).toContain('- [Tools](guide/tools.md): A tool is a method the model can call.');
    expect(llms).toContain('You need Node 20.19 or later.');
    expect(llms).toContain('- [API reference](api/index.md): ');
    const full = readFileSync(join(DIST, 'llms-full.txt'), 'utf8');
    // Every guide page, in the sidebar's order, code included.
    const titles = PAGES.filter((p) => !p.link.startsWith('/api/')).map((p) => {
      const source = readFileSync(join(DOCS_ROOT, `${p.link}.md`), 'utf8');
      return /^# (.+)$/m.exec(source)![0];
    });
    const at = titles.map((title) => full.indexOf(`\n${title}\n`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(full).toContain("import { createServer, Tool } from '@mcp-fw/core';");
    // Vue blocks, comments and charts start a line; a `<script>` inside a code sample may stay.
    expect(full).not.toMatch(/^(<script|<!--|<BenchChart)/m);
  });

  it('links only to pages and anchors that exist', () => {
    const ids = new Map<string, Set<string>>();
    const idsAt = (file: string) => {
      if (!ids.has(file)) ids.set(file, idsOf(readFileSync(file, 'utf8')));
      return ids.get(file)!;
    };
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const html = readFileSync(file, 'utf8');
      const page = urlOf(DIST, file);
      for (const [, href] of html.matchAll(/<a\s[^>]*href="([^"]*)"/g)) {
        if (/^[a-z]+:/i.test(href) || href.startsWith('//')) continue;
        checked++;
        const [path, anchor] = href.split('#');
        const target = path ? fileFor(DIST, new URL(path, `http://x${page}`).pathname) : file;
        if (!target) broken.push(`${page}: ${href} leads nowhere`);
        else if (anchor && !idsAt(target).has(decodeURIComponent(anchor)))
          broken.push(`${page}: ${href} — ${urlOf(DIST, target)} has no #${anchor}`);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(broken).toEqual([]);
  });

  // The row "the site: … no link to the repository or the packages".
  it('links every page to the repository, each package and the changelog, at files this checkout has', () => {
    const expected = [REPOSITORY, CHANGELOG, ...PACKAGES.map((p) => p.link)];
    for (const path of ['/', '/quick-start', '/guide/deployment', '/integrations/cursor']) {
      const html = readFileSync(fileFor(DIST, path)!, 'utf8');
      const hrefs = new Set([...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => m[1]));
      for (const link of expected) expect(hrefs, `${path} links to ${link}`).toContain(link);
    }
    // The same repository the README and the scaffolder clone, and what it links to is there.
    expect(`${REPOSITORY}.git`).toBe(REPOSITORY_URL);
    for (const link of [CHANGELOG, ...PACKAGES.map((p) => p.link)]) {
      const file = link
        .replace(`${REPOSITORY}/blob/main/`, '')
        .replace(`${REPOSITORY}/tree/main/`, '')
        .replace('#readme', '/README.md');
      expect(existsSync(join(DOCS_ROOT, '..', file)), `${link} → ${file}`).toBe(true);
    }
  });
});
