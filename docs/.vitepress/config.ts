import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitepress';
import { writeLlmsFiles } from '../scripts/llms.ts';
import { CHANGELOG, PACKAGES, REPOSITORY } from './links.ts';
import { GUIDE } from './sidebar.ts';

const API_SIDEBAR = join(import.meta.dirname, '..', 'api', 'typedoc-sidebar.json');

/** The API reference's sidebar, written by TypeDoc (scripts/api.mjs) before every build. */
function apiSidebar() {
  if (!existsSync(API_SIDEBAR)) return [];
  return JSON.parse(readFileSync(API_SIDEBAR, 'utf8'));
}

export default defineConfig({
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
    config(md) {
      // ```mermaid fences become diagrams drawn in the browser (MermaidDiagram.vue).
      const fence = md.renderer.rules.fence!;
      md.renderer.rules.fence = (tokens, index, options, env, self) => {
        const token = tokens[index];
        if (token.info.trim() !== 'mermaid') return fence(tokens, index, options, env, self);
        const code = encodeURIComponent(token.content);
        return `<MermaidDiagram id="mermaid-${index}" code="${code}" />\n`;
      };
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/quick-start' },
      { text: 'Clients', link: '/integrations/clients' },
      { text: 'API', link: '/api/' },
      { text: 'Performance', link: '/performance' },
      {
        text: 'Links',
        items: [
          { text: 'Repository', link: REPOSITORY },
          { text: 'Changelog', link: CHANGELOG },
          { text: 'Packages (not on npm before the first release)', items: [...PACKAGES] },
        ],
      },
    ],
    socialLinks: [{ icon: 'github', link: REPOSITORY, ariaLabel: 'The mcp-fw repository' }],
    sidebar: {
      '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar() }],
      '/': GUIDE.map((group) => ({ ...group, items: [...group.items] })),
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    footer: {
      message: `Every code sample on this site is compiled by the test suite. <a href="${REPOSITORY}">Repository</a> · <a href="${CHANGELOG}">Changelog</a>`,
    },
  },
  vite: { build: { chunkSizeWarningLimit: 1024 } }, // mermaid's chunk, loaded only with a diagram
  async buildEnd(site) {
    writeLlmsFiles(site.srcDir, site.outDir);
  },
});
