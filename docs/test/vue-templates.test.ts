// VitePress compiles every page into a Vue component, so a bare `<name>` in prose (a placeholder,
// not HTML) is an unclosed element that fails `vitepress build`, which only the slow docs-site
// step runs. Here each page goes through the site's own Markdown renderer and Vue's SFC parser,
// as the build does, so such a page fails in `npm test` with its file, line and column.
import { join } from 'node:path';
import { parse } from 'vue/compiler-sfc';
import { createMarkdownRenderer } from 'vitepress';
import { describe, expect, it } from 'vitest';
import config from '../.vitepress/config.ts';
import { DOCS_ROOT, docPages, pageText } from './pages.ts';
import { REPO_ROOT } from '../../packages/core/test/support/paths.ts';

describe('every page compiles to a Vue template', async () => {
  const md = await createMarkdownRenderer(DOCS_ROOT, config.markdown, '/');

  it.each(docPages())('%s', (page) => {
    const html = md.render(pageText(page), { path: join(REPO_ROOT, page), relativePath: page });
    const { errors } = parse(`<template><div>${html}</div></template>`, { filename: page });
    expect(errors.map((e) => `${page}: ${e.message}`)).toEqual([]);
  });

  it('reports a bare placeholder in prose as the build would', () => {
    const html = md.render('Removed after <sunset>.\n', {});
    const { errors } = parse(`<template><div>${html}</div></template>`);
    expect(errors.map((e) => e.message)).toContain('Element is missing end tag.');
  });
});
