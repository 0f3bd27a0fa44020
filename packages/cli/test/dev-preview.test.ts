// The MCP Apps preview host of `mcp-fw dev --preview`, in Chromium (playwright-core, the
// distribution's package as docs/test/browser.site.ts uses it): the logistics example's order
// board renders through ext-apps' AppBridge and the double-iframe sandbox, and a view that
// fetches an origin its CSP does not declare gets a listed violation naming the field to add.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createServer, Tool, View } from '@mcp-fw/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PreviewHandle, startPreview } from '../src/dev/preview/server.ts';
import { bundleViews } from '../src/views/bundle-views.ts';
import { REPO_ROOT } from '../../core/test/support/paths.ts';
import { createServer as createHttpServer } from 'node:http';
import { listeningUrl, runCli, startCli } from './support/cli-process.ts';
import { fixtureProject } from './support/temp-project.ts';
import { server as logistics } from '../../../examples/logistics/src/server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EXAMPLE = join(REPO_ROOT, 'examples/logistics');
// Screenshots for the docs land beside the site test's (git-ignored).
const ARTEFACTS = join(REPO_ROOT, 'docs', '.artefacts');

// A view that fetches an origin missing from its connectDomains (and one it declares).
class Fetching {
  @View('ui://fetching/view', { csp: { connectDomains: ['https://declared.example'] } })
  view() {
    return `<!doctype html><html><head><title>fetching</title></head><body><p id="out">…</p>
<script>fetch('https://undeclared.example/data.json').catch(() => { document.getElementById('out').textContent = 'blocked'; });</script>
</body></html>`;
  }

  @Tool({ description: 'Shows the fetching view', input: z.object({}), ui: 'ui://fetching/view' })
  fetching() {
    return 'shown';
  }
}
// ext-apps' own JSON Schema of the view protocol: each `ui/…` message and the initialize result.
// Each of its $defs is a whole schema (its refs point into its own $defs), compiled alone.
const schema = createRequire(import.meta.url)('@modelcontextprotocol/ext-apps/schema.json');
const ajv = new Ajv2020({ strict: false });
const byMethod = new Map<string, string>();
for (const [name, def] of Object.entries<any>(schema.$defs)) {
  const method = def.properties?.method?.const;
  if (method) byMethod.set(method, name);
}

/** Every view-protocol message that ext-apps' schema describes, checked; the errors found. */
function invalidMessages(messages: { message: any }[]): string[] {
  const errors: string[] = [];
  const check = (ref: string, value: unknown, what: string) => {
    const validate = ajv.compile(schema.$defs[ref]);
    if (!validate(value)) errors.push(`${what}: ${ajv.errorsText(validate.errors)}`);
  };
  const initializeIds = new Set<unknown>();
  for (const { message } of messages) {
    const name = message.method && byMethod.get(message.method);
    if (name) check(name, { method: message.method, params: message.params }, message.method);
    if (message.method === 'ui/initialize') initializeIds.add(message.id);
    else if (!message.method && initializeIds.has(message.id))
      check('McpUiInitializeResult', message.result, 'ui/initialize result');
  }
  return errors;
}

const fetchingServer = createServer({ name: 'fetching', version: '1.0.0', providers: [Fetching] });

// A view written in React (views/dice/main.tsx: ext-apps' useApp), bundled by Vite as is.
const REACT_FIXTURE = join(import.meta.dirname, 'fixtures', 'react-view');
const Roll = z.object({ count: z.number().int().min(1).max(6) });
const Dice = z.object({ dice: z.array(z.number()) });
let rolls = 0;
const rolled = (count: number) => {
  rolls++;
  const dice = Array.from({ length: count }, (_, i) => ((rolls + i) % 6) + 1);
  return {
    content: [{ type: 'text' as const, text: dice.join(', ') }],
    structuredContent: { dice },
  };
};
class ReactDice {
  @View('ui://dice/react')
  view() {
    return readFileSync(join(REACT_FIXTURE, 'dist', 'views', 'dice.html'), 'utf8');
  }

  @Tool({ description: 'Rolls dice', input: Roll, output: Dice, ui: 'ui://dice/react' })
  roll({ count }: z.infer<typeof Roll>) {
    return rolled(count);
  }

  @Tool({
    description: 'Rolls again (the view calls it)',
    input: Roll,
    output: Dice,
    ui: { resource: 'ui://dice/react', visibility: ['app'] },
  })
  reroll({ count }: z.infer<typeof Roll>) {
    return rolled(count);
  }
}
const reactServer = createServer({ name: 'react-dice', version: '1.0.0', providers: [ReactDice] });

describe.skipIf(!existsSync(CHROMIUM))(`the preview host in Chromium (${CHROMIUM})`, () => {
  let browser: Browser;
  const previews: PreviewHandle[] = [];

  beforeAll(async () => {
    await bundleViews(EXAMPLE, join(EXAMPLE, 'dist'));
    await bundleViews(REACT_FIXTURE, join(REACT_FIXTURE, 'dist'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(previews.map((p) => p.close()));
  });

  async function open(
    server: Parameters<typeof startPreview>[0],
    projectDir = EXAMPLE,
  ): Promise<{ page: Page; errors: string[] }> {
    const preview = await startPreview(server, { projectDir });
    previews.push(preview);
    expect(new URL(preview.sandboxUrl).origin).not.toBe(new URL(preview.url).origin);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(preview.url);
    await page.locator('#tool option').first().waitFor({ state: 'attached' });
    return { page, errors };
  }

  it('the board view initializes, receives the input and result, calls the app-only tool and renders its answer, with no console error', async () => {
    const { page, errors } = await open(logistics);
    // The app-only order_events is listed to a client that renders views.
    expect(await page.locator('#tool option').allTextContents()).toContain('order_events');
    await page.selectOption('#tool', 'order_board');
    await page.click('#call');
    const view = page.frameLocator('#view').frameLocator('iframe');
    await expect
      .poll(() => view.locator('#state').textContent(), { timeout: 15_000 })
      .toMatch(/^\d+ orders$/);
    const firstRow = view.locator('#orders tbody tr').first();
    const orderId = await firstRow.getAttribute('data-order');
    await firstRow.click();
    await expect
      .poll(() => view.locator('#events h2').textContent(), { timeout: 10_000 })
      .toBe(`Tracking ${orderId}`);
    expect(await view.locator('#events li').count()).toBeGreaterThan(0);
    // The view asked for its size (ui/notifications/size-changed) and the host applied it.
    const height = await page.locator('#view').evaluate((frame) => (frame as any).style.height);
    expect(height).toMatch(/^\d+px$/);
    mkdirSync(ARTEFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTEFACTS, 'preview-order-board.png'), fullPage: false });
    const messages: { direction: string; message: any }[] = await page.evaluate(
      () => (globalThis as any).__previewMessages,
    );
    const seen = messages.map(
      (m) => `${m.direction} ${m.message.method ?? (m.message.result ? 'result' : '')}`,
    );
    for (const step of [
      'view→host ui/initialize',
      'view→host ui/notifications/initialized',
      'host→view ui/notifications/tool-input',
      'host→view ui/notifications/tool-result',
      'view→host tools/call',
      'view→host ui/notifications/size-changed',
    ])
      expect(seen).toContain(step);
    // Every message of the view protocol seen is valid against ext-apps' schema.json.
    expect(messages.filter((m) => m.message.method?.startsWith('ui/')).length).toBeGreaterThan(4);
    expect(invalidMessages(messages)).toEqual([]);
    // …and the check can fail: a tool input with a field the schema does not have.
    const stray = { method: 'ui/notifications/tool-input', params: { arguments: {}, stray: 1 } };
    expect(invalidMessages([{ message: stray }])).toHaveLength(1);
    const listed = await page.locator('#messages li').count();
    expect(listed).toBe(seen.length);
    // The bundle's zod probes for eval once (and falls back): listed, with nothing to add.
    for (const violation of await page.locator('#violations li').allTextContents())
      expect(violation).toBe(
        'script-src blocked eval: no csp field allows eval; hosts refuse it too',
      );
    expect(errors).toEqual([]);
  }, 30_000);

  it('a React view (ext-apps useApp, bundled by Vite into one file) renders the result and calls the app-only tool, with no console error', async () => {
    // The view type-checks as its author would check it (DOM, JSX, React's and ext-apps' types).
    const checked = spawnSync(
      join(REPO_ROOT, 'node_modules', '.bin', 'tsc'),
      ['-p', REACT_FIXTURE],
      {
        encoding: 'utf8',
      },
    );
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    const { page, errors } = await open(reactServer, REACT_FIXTURE);
    await page.selectOption('#tool', 'roll');
    await page.fill('[name="count"]', '3');
    await page.click('#call');
    const view = page.frameLocator('#view').frameLocator('iframe');
    await expect
      .poll(() => view.locator('#state').textContent(), { timeout: 15_000 })
      .toBe('3 dice');
    const first = await view.locator('#dice').textContent();
    await view.locator('#reroll').click();
    await expect
      .poll(() => view.locator('#dice').textContent(), { timeout: 10_000 })
      .not.toBe(first);
    expect((await view.locator('#dice').textContent())!.split(' ')).toHaveLength(3);
    const messages: { direction: string; message: any }[] = await page.evaluate(
      () => (globalThis as any).__previewMessages,
    );
    expect(
      messages.some((m) => m.direction === 'view→host' && m.message.params?.name === 'reroll'),
    ).toBe(true);
    expect(invalidMessages(messages)).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);

  it('a view fetching a domain missing from connectDomains shows a listed violation naming connectDomains and the domain', async () => {
    const { page } = await open(fetchingServer);
    await page.click('#call');
    await expect
      .poll(() => page.locator('#violations li').allTextContents(), { timeout: 10_000 })
      .toContainEqual(expect.stringContaining('https://undeclared.example'));
    const text = (await page.locator('#violations li').allTextContents()).join('\n');
    expect(text).toContain('connect-src');
    expect(text).toContain('add https://undeclared.example to csp.connectDomains');
    expect(text).not.toContain('add https://declared.example');
    mkdirSync(ARTEFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTEFACTS, 'preview-csp-violation.png'), fullPage: false });
  }, 30_000);
});

describe('mcp-fw dev --preview', () => {
  it('prints the preview URL, whose page and API reach the dev server', async () => {
    const project = fixtureProject('greeter');
    const { child, stderr } = startCli(
      ['dev', 'src/server.ts', '--http', '--port', '0', '--preview'],
      project.dir,
    );
    try {
      await listeningUrl(stderr, child);
      await expect
        .poll(() => /MCP Apps preview at (\S+)/.exec(stderr())?.[1], { timeout: 15_000 })
        .toBeTruthy();
      const url = /MCP Apps preview at (\S+)/.exec(stderr())![1];
      expect(await (await fetch(url)).text()).toContain('<title>mcp-fw preview</title>');
      const host = await fetch(new URL('/host.js', url));
      expect(host.headers.get('content-type')).toContain('text/javascript');
      const api = (path: string, body: object) =>
        fetch(new URL(`/api/${path}`, url), { method: 'POST', body: JSON.stringify(body) });
      const { tools } = (await (await api('tools', {})).json()) as { tools: { name: string }[] };
      expect(tools.map((t) => t.name)).toContain('greet');
      const called = await api('call', { name: 'greet', arguments: { name: 'Ada' } });
      const result = (await called.json()) as { content: { text: string }[] };
      expect(result.content[0].text).toBe('Hello, Ada!');
    } finally {
      await new Promise((resolve) => (child.once('exit', resolve), child.kill()));
      project.remove();
    }
  }, 30_000);

  it('a preview port in use names the port and --preview', async () => {
    const blocker = createHttpServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const project = fixtureProject('greeter');
    try {
      const run = await runCli(
        ['dev', 'src/server.ts', '--http', '--port', '0', '--preview', String(port)],
        project.dir,
      );
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`port ${port}`);
      expect(run.stderr).toContain('--preview <port>');
    } finally {
      blocker.close();
      project.remove();
    }
  }, 30_000);
});
