// llms.txt and llms-full.txt (llmstxt.org), written into the built site from the same Markdown
// the pages are built from, in the sidebar's order: the index links each page's Markdown copy
// (also written), the full file holds every guide page's text.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GUIDE, PAGES } from '../.vitepress/sidebar.ts';

/** The page's Markdown as an assistant should read it: no front matter, comments or Vue tags. */
export function plainMarkdown(source: string): string {
  return source
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/<script[\s\S]*?<\/script>\n?/g, '')
    .replace(/<!--[\s\S]*?-->\n?/g, '')
    .replace(/^<[A-Z][\w-]*[^>]*\/>\n?/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The Markdown source of a sidebar link, e.g. `/guide/tools` → `guide/tools.md`. */
export function sourceOf(link: string): string {
  return link.endsWith('/') ? `${link.slice(1)}index.md` : `${link.slice(1)}.md`;
}

/** The first paragraph after a page's title: its one-line summary in llms.txt. */
function summaryOf(markdown: string): string {
  const paragraph = markdown
    .split('\n\n')
    .find((block) => block.trim() && !/^(#|```|\||<|-|>)/.test(block.trim()));
  return (paragraph ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .trim();
}

export function writeLlmsFiles(srcDir: string, outDir: string): void {
  const index = [
    '# mcp-fw',
    '',
    '> A TypeScript framework for Model Context Protocol servers: decorated classes become tools, resources and prompts, served over stdio and HTTP in every protocol revision from 2024-11-05 to 2026-07-28.',
    '',
  ];
  const full = [index[0], '', index[2], ''];
  for (const group of GUIDE) {
    index.push(`## ${group.text}`, '');
    for (const page of group.items) {
      const file = join(srcDir, sourceOf(page.link));
      if (!existsSync(file)) continue;
      const markdown = plainMarkdown(readFileSync(file, 'utf8'));
      const copy = join(outDir, sourceOf(page.link));
      mkdirSync(dirname(copy), { recursive: true });
      copyFileSync(file, copy);
      index.push(`- [${page.text}](${sourceOf(page.link)}): ${summaryOf(markdown)}`);
      full.push(markdown, '');
    }
    index.push('');
  }
  writeFileSync(join(outDir, 'llms.txt'), `${index.join('\n').trim()}\n`);
  writeFileSync(join(outDir, 'llms-full.txt'), `${full.join('\n').trim()}\n`);
}

export { PAGES };
