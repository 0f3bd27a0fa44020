import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundleViews } from '../src/views/bundle-views.ts';
import { cleanupAfterEach } from './support/cleanups.ts';
import { runCli } from './support/cli-process.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

function withViews(files: Record<string, string>): TempProject {
  const project = fixtureProject('greeter');
  cleanup(() => project.remove());
  for (const [file, text] of Object.entries(files)) project.write(file, text);
  return project;
}

const BOARD = {
  'views/board/index.html':
    '<!doctype html><html><head><link rel="stylesheet" href="./board.css"></head>' +
    '<body><main id="board"></main><script type="module" src="./main.ts"></script></body></html>',
  'views/board/board.css': 'main { color: rebeccapurple; }',
  'views/board/main.ts':
    "import { render } from './render.ts';\ndocument.getElementById('board')!.textContent = render(['A-1', 'A-2']);\n",
  'views/board/render.ts':
    "export function render(ids: string[]): string {\n  return `orders: ${ids.join(', ')}`;\n}\n",
};

describe('mcp-fw build bundles each view into one HTML file', () => {
  it('the view bundle is one HTML file: scripts and styles inlined, nothing loaded from beside it', async () => {
    const project = withViews(BOARD);
    const [view] = await bundleViews(project.dir, project.path('dist'));
    expect(view.file).toBe(project.path('dist/views/board.html'));
    expect(readdirSync(project.path('dist/views'))).toEqual(['board.html']);
    const html = readFileSync(view.file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<style[^>]*>[^<]*main\s*{\s*color:\s*(rebeccapurple|#639)/);
    expect(html).toContain('orders: ');
    expect(html).not.toMatch(/src=["']\.\/|href=["']\.\//);
  });

  it('markup inside a bundled script (a library building <link href=…>) is not taken for a file the view loads', async () => {
    const project = withViews({
      'views/icon/index.html':
        '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>',
      'views/icon/main.ts':
        'document.head.insertAdjacentHTML(\'beforeend\', \'<link rel="icon" href="./icon.png">\');\n',
    });
    const [view] = await bundleViews(project.dir, project.path('dist'));
    expect(readFileSync(view.file, 'utf8')).toContain('href="./icon.png"');
  });

  it('mcp-fw build compiles the server and writes dist/views/<name>.html', async () => {
    const project = withViews({ 'views/hello/index.html': '<!doctype html><p>hello</p>' });
    const run = await runCli(['build'], project.dir);
    expect(run.stderr).toMatch(/Bundled view hello into dist\/views\/hello\.html/);
    expect(run.code).toBe(0);
    expect(project.read('dist/views/hello.html')).toContain('<p>hello</p>');
  });

  it('a view whose script does not compile names the view and the folder to fix', async () => {
    const project = withViews({
      'views/broken/index.html': '<!doctype html><script type="module" src="./main.ts"></script>',
      'views/broken/main.ts': "import { nope } from './missing.ts';\nnope();\n",
    });
    await expect(bundleViews(project.dir, project.path('dist'))).rejects.toThrow(
      /Bundling view broken failed/,
    );
  });
});
