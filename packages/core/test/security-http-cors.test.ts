import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { SURFACES, type Surface } from './support/http-surfaces.ts';

// Issue #15, part 7: a browser client on an allowed origin must get through the CORS preflight
// with every header a revision requires, 2026-07-28's Mcp-Method, Mcp-Name and Mcp-Param-*
// included, and must be able to read Mcp-Session-Id.

const MODERN = '2026-07-28';
const PAGE_ORIGIN = 'http://localhost:5173';
const CHROMIUM_MODERN_PREFLIGHT =
  'content-type,mcp-method,mcp-name,mcp-param-region,mcp-protocol-version';

class Regional {
  @Tool({
    input: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
  })
  regional({ region }: { region: string }) {
    return `served ${region}`;
  }
}

const regionalServer = () =>
  createServer({ name: 'cors-test', version: '1.0.0', providers: [Regional] });

const modernCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'regional',
    arguments: { region: 'eu-west' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const modernHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'regional',
  'mcp-param-region': 'eu-west',
};

let surface: Surface | undefined;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await surface?.close();
  surface = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(SURFACES)('CORS for browser clients (%s)', (_name, make) => {
  it('a browser client on an allowed origin passes the 2026-07-28 preflight (what Chromium sends) and makes the call', async () => {
    surface = await make(regionalServer(), { cors: { origins: [PAGE_ORIGIN] } });
    // Exactly what Chromium 150 sends (recorded by the real-browser test below): lower-case
    // names, sorted, comma-separated without spaces, the safelisted Accept left out.
    const preflight = await surface.send({
      method: 'OPTIONS',
      path: '/mcp',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': CHROMIUM_MODERN_PREFLIGHT,
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.header('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(preflight.header('access-control-allow-methods')).toContain('POST');
    const allowed = preflight
      .header('access-control-allow-headers')!
      .split(',')
      .map((h) => h.trim());
    expect(allowed).toEqual([
      'content-type',
      'mcp-method',
      'mcp-name',
      'mcp-param-region',
      'mcp-protocol-version',
    ]);
    const call = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...modernHeaders, origin: PAGE_ORIGIN },
      body: modernCall,
    });
    expect(call.status).toBe(200);
    expect(call.header('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(call.header('access-control-expose-headers')).toBe(
      'mcp-session-id, www-authenticate, retry-after',
    );
    expect(JSON.parse(await call.text()).result.content[0].text).toBe('served eu-west');
  });

  it('allows the legacy session, resumption and credential headers, and never echoes a header outside the allowed set', async () => {
    surface = await make(regionalServer(), { cors: { origins: [PAGE_ORIGIN] } });
    const preflight = await surface.send({
      method: 'OPTIONS',
      path: '/mcp',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'Authorization, Last-Event-ID, Mcp-Session-Id, MCP-Protocol-Version, X-Evil, mcp-param-, mcp-param-a b, Cookie',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.header('access-control-allow-headers')).toBe(
      'authorization, last-event-id, mcp-session-id, mcp-protocol-version',
    );
    expect(preflight.header('vary')).toBe('origin, access-control-request-headers');
    // Another origin gets no CORS headers at all (and the Origin guard refuses it anyway).
    const foreign = await surface.send({
      method: 'OPTIONS',
      path: '/mcp',
      headers: { origin: 'http://localhost:9999', 'access-control-request-method': 'POST' },
    });
    expect(foreign.header('access-control-allow-origin')).toBeUndefined();
    await foreign.text();
  });
});

const chromium = ['chromium', 'chromium-browser', 'google-chrome'].find(
  (bin) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0,
);

describe('CORS in a real browser', () => {
  // CI installs chromium (scripts/system-packages.sh), so there a missing browser is a failure.
  it.runIf(!chromium && process.env.CI)(
    'chromium is installed (CI installs it with scripts/system-packages.sh)',
    () => {
      expect(chromium, 'no chromium on PATH').toBeDefined();
    },
  );

  it.skipIf(!chromium)(
    'a browser client on an allowed origin, 2026-07-28: headless Chromium passes the preflight, calls the tool, and reads Mcp-Session-Id on the legacy path',
    { timeout: 90_000 },
    async () => {
      // The page's own server: serves the script and receives its report.
      let report!: (result: unknown) => void;
      const reported = new Promise<any>((resolve) => (report = resolve));
      let mcpPort = 0;
      const page: Server = createHttpServer((req, res) => {
        if (req.method === 'POST' && req.url === '/result') {
          let body = '';
          req.on('data', (c) => (body += c));
          req.on('end', () => {
            report(JSON.parse(body));
            res.end();
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(pageHtml(`http://127.0.0.1:${mcpPort}/mcp`));
      });
      await new Promise<void>((r) => page.listen(0, '127.0.0.1', () => r()));
      cleanups.push(() => new Promise((r) => page.close(r)));
      const pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;

      const handle: HttpServerHandle = await serveHttp(regionalServer(), {
        port: 0,
        cors: { origins: [pageOrigin] },
      });
      cleanups.push(() => handle.close());
      mcpPort = handle.port;
      const seen: { method?: string; requested?: string }[] = [];
      handle.httpServer.on('request', (req) =>
        seen.push({ method: req.method, requested: req.headers['access-control-request-headers'] }),
      );

      const profile = mkdtempSync(join(tmpdir(), 'mcp-fw-chromium-'));
      const browser: ChildProcess = spawn(
        chromium!,
        [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--no-first-run',
          `--user-data-dir=${profile}`,
          `${pageOrigin}/`,
        ],
        { stdio: 'ignore', detached: true },
      );
      cleanups.push(() => {
        // The browser and its helpers share the process group we started it in.
        try {
          process.kill(-browser.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
        rmSync(profile, { recursive: true, force: true });
      });

      const result = await reported;
      expect(result).toMatchObject({
        ok: true,
        modern: { status: 200, text: 'served eu-west' },
        legacy: { status: 200, session: expect.stringMatching(/^\S+$/), listed: 1 },
      });
      // A real preflight went out, naming the 2026-07-28 headers.
      const preflights = seen.filter((r) => r.method === 'OPTIONS').map((r) => r.requested);
      expect(preflights).toEqual([
        CHROMIUM_MODERN_PREFLIGHT,
        'content-type,mcp-protocol-version,mcp-session-id',
      ]);
    },
  );
});

/** The page a browser client runs: a 2026-07-28 call, then a legacy session that must read Mcp-Session-Id. */
function pageHtml(mcp: string): string {
  const script = `
const mcp = ${JSON.stringify(mcp)};
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function run() {
  const modernResponse = await fetch(mcp, { method: 'POST', headers: ${JSON.stringify(modernHeaders)}, body: ${JSON.stringify(modernCall)} });
  const modern = { status: modernResponse.status, text: (await modernResponse.json()).result.content[0].text };
  const init = await fetch(mcp, { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } } }) });
  await init.text();
  const session = init.headers.get('mcp-session-id');
  const headers = { ...json, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await fetch(mcp, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  const list = await fetch(mcp, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
  const listed = (await list.json()).result.tools.length;
  return { modern, legacy: { status: list.status, session, listed } };
}
const send = (result) => fetch('/result', { method: 'POST', body: JSON.stringify(result) });
run().then((r) => send({ ok: true, ...r }), (e) => send({ ok: false, error: String(e && e.stack || e) }));
`;
  return `<!doctype html><html><body><script>${script}</script></body></html>`;
}
