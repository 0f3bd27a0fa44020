// llms.txt and llms-full.txt (llmstxt.org), written into the built site from the same Markdown
// the pages are built from, in the sidebar's order: the index links a Markdown copy of each
// page (also written, the API reference's included), the full file holds every guide page.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GUIDE } from '../.vitepress/sidebar.ts';

interface BenchData {
  readonly [field: string]: unknown;
  readonly metrics: readonly {
    id: string;
    title: string;
    unit: string;
    better: string;
    values: { subject: string; value: number }[];
  }[];
}

/** A benchmark chart as the Markdown table an assistant can read. */
function chartTable(bench: BenchData, id: string): string {
  const metric = bench.metrics.find((m) => m.id === id);
  if (!metric) return '';
  const rows = metric.values.map((v) => `| ${v.subject} | ${v.value} |`);
  return [
    `**${metric.title}** (${metric.unit}, ${metric.better} is better)`,
    '',
    `| server | ${metric.unit} |`,
    '|---|---:|',
    ...rows,
    '',
  ].join('\n');
}

/**
 * The page's Markdown as an assistant should read it: no front matter, scripts, comments or
 * containers; the performance page's charts as tables and its `{{ data.x }}` filled in.
 */
export function plainMarkdown(source: string, bench?: BenchData): string {
  return source
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/^<script[\s\S]*?^<\/script>\n?/gm, '')
    .replace(/^<!--[\s\S]*?-->\n?/gm, '')
    .replace(/^:::.*\n/gm, '')
    .replace(/^<BenchChart metric="([\w-]+)" \/>\n?/gm, (_, id) =>
      bench ? chartTable(bench, id) : '',
    )
    .replace(/\{\{\s*data\.(\w+)\s*\}\}/g, (_, field) => String(bench?.[field] ?? ''))
    .replace(/^<[A-Z][\w-]*[^>]*\/>\n?/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The Markdown source of a sidebar link, e.g. `/guide/tools` → `guide/tools.md`. */
export function sourceOf(link: string): string {
  return link.endsWith('/') ? `${link.slice(1)}index.md` : `${link.slice(1)}.md`;
}

/** The first sentences after a page's title: its one-line summary in llms.txt. */
function summaryOf(markdown: string): string {
  const paragraph =
    markdown
      .split('\n\n')
      .find((block) => block.trim() && !/^(#|```|\||<|-|>|\*\*)/.test(block.trim())) ?? '';
  const text = paragraph
    .replace(/\s+/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .trim();
  let summary = '';
  for (const sentence of text.split(/(?<=[.!?:])\s+/)) {
    if (summary && summary.length + sentence.length > 220) break;
    summary += `${summary ? ' ' : ''}${sentence}`;
  }
  return summary;
}

export function writeLlmsFiles(srcDir: string, outDir: string): void {
  const benchFile = join(srcDir, 'data', 'bench.json');
  const bench = existsSync(benchFile)
    ? (JSON.parse(readFileSync(benchFile, 'utf8')) as BenchData)
    : undefined;
  const intro =
    '> A TypeScript framework for Model Context Protocol servers: decorated classes become tools, resources and prompts, served over stdio and HTTP in every protocol revision from 2024-11-05 to 2026-07-28.';
  const index = ['# mcp-fw', '', intro, ''];
  const full = ['# mcp-fw', '', intro, ''];
  for (const group of GUIDE) {
    index.push(`## ${group.text}`, '');
    for (const page of group.items) {
      const file = join(srcDir, sourceOf(page.link));
      if (!existsSync(file)) continue;
      const markdown = plainMarkdown(readFileSync(file, 'utf8'), bench);
      const copy = join(outDir, sourceOf(page.link));
      mkdirSync(dirname(copy), { recursive: true });
      writeFileSync(copy, `${markdown}\n`);
      index.push(`- [${page.text}](${sourceOf(page.link)}): ${summaryOf(markdown)}`);
      if (!page.link.startsWith('/api/')) full.push(markdown, '');
    }
    index.push('');
  }
  // The API reference's pages link each other as .md files: copy them all beside its index.
  const api = join(srcDir, 'api');
  if (existsSync(api))
    cpSync(api, join(outDir, 'api'), {
      recursive: true,
      filter: (source) => !source.endsWith('.json'),
    });
  writeFileSync(join(outDir, 'llms.txt'), `${index.join('\n').trim()}\n`);
  writeFileSync(join(outDir, 'llms-full.txt'), `${full.join('\n').trim()}\n`);
}
