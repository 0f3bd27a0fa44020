import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitepress';
import { withMermaid } from 'vitepress-plugin-mermaid';
import { writeLlmsFiles } from '../scripts/llms.ts';
import { GUIDE } from './sidebar.ts';

const API_SIDEBAR = join(import.meta.dirname, '..', 'api', 'typedoc-sidebar.json');

/** The API reference's sidebar, written by TypeDoc (scripts/api.mjs) before every build. */
function apiSidebar() {
  if (!existsSync(API_SIDEBAR)) return [];
  return JSON.parse(readFileSync(API_SIDEBAR, 'utf8'));
}

export default withMermaid(
  defineConfig({
    title: 'mcp-fw',
    description:
      'Model Context Protocol servers from decorated TypeScript classes: every protocol revision, stdio and HTTP.',
    lang: 'en',
    cleanUrls: true,
    lastUpdated: false,
    srcExclude: ['README.md', 'test/**', 'scripts/**', 'data/**', 'node_modules/**'],
    head: [['link', { rel: 'icon', href: 'data:,' }]],
    markdown: {
      theme: { light: 'github-light', dark: 'github-dark' },
    },
    themeConfig: {
      nav: [
        { text: 'Guide', link: '/quick-start' },
        { text: 'API', link: '/api/' },
        { text: 'Performance', link: '/performance' },
      ],
      sidebar: {
        '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar() }],
        '/': GUIDE.map((group) => ({ ...group, items: [...group.items] })),
      },
      search: { provider: 'local' },
      outline: { level: [2, 3] },
      footer: { message: 'Every code sample on this site is compiled by the test suite.' },
    },
    vite: { build: { chunkSizeWarningLimit: 4096 } }, // mermaid is one large chunk, loaded on demand
    mermaid: { securityLevel: 'strict' },
    async buildEnd(site) {
      writeLlmsFiles(site.srcDir, site.outDir);
    },
  }),
);
