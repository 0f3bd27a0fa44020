import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpClient } from '@mcp-fw/client';
import type { Servable } from '@mcp-fw/core/transport';
import { HOST_SCRIPT, hostHtml, SANDBOX_HTML } from './pages.js';

/** Where `startPreview` listens and where it finds ext-apps. */
export interface PreviewOptions {
  /** Port of the host page (0: any free one); the sandbox takes its own port. */
  readonly port?: number;
  readonly host?: string;
  /** The project directory: `@modelcontextprotocol/ext-apps` is resolved from it first. */
  readonly projectDir?: string;
}

/** A running preview host. */
export interface PreviewHandle {
  /** The host page: open it in a browser. */
  readonly url: string;
  /** The sandbox page, on its own origin (port). */
  readonly sandboxUrl: string;
  close(): Promise<void>;
}

const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/**
 * Serves the MCP Apps preview host for `server`: a page that lists its tools, calls one with a
 * form's inputs and renders its view through ext-apps' AppBridge in a double-iframe sandbox on
 * a second origin, under the CSP the view declares, listing CSP violations and the messages.
 * The page reaches the server through an in-process client that declares UI support.
 */
export async function startPreview(
  server: Servable,
  options: PreviewOptions = {},
): Promise<PreviewHandle> {
  const host = options.host ?? '127.0.0.1';
  const script = bundleHostScript(options.projectDir);
  // A failed bundle is reported when the page asks for it, not as an unhandled rejection.
  script.catch(() => {});
  // Connected on the page's first request: the ports are taken (or refused) before the server
  // has started, so a port in use fails `mcp-fw dev` at startup.
  let connecting: Promise<McpClient> | undefined;
  const client = () => {
    connecting ??= import('@mcp-fw/client').then(({ connect }) =>
      connect(server, { capabilities: { extensions: UI_EXTENSION } }),
    );
    return connecting;
  };
  const sandbox = await listen(
    createServer((request, response) => {
      if (request.method === 'GET' && request.url?.split('?')[0] === '/sandbox.html')
        send(response, 200, 'text/html; charset=utf-8', SANDBOX_HTML);
      else send(response, 404, 'text/plain', 'not found');
    }),
    0,
    host,
  );
  const sandboxUrl = `http://${urlHost(host)}:${port(sandbox)}/sandbox.html`;
  const page = hostHtml(sandboxUrl);
  const api: Record<string, (body: any) => Promise<unknown>> = {
    tools: async () => ({ tools: await (await client()).listTools() }),
    call: async (body) => (await client()).callTool(String(body.name), body.arguments ?? {}),
    read: async (body) => (await client()).readResource(String(body.uri)),
  };
  const hostServer = createServer((request, response) => {
    void route(request, response).catch((error) =>
      send(response, 500, 'application/json', JSON.stringify({ error: messageOf(error) })),
    );
  });
  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url?.split('?')[0] ?? '/';
    if (request.method === 'GET' && path === '/')
      return send(response, 200, 'text/html; charset=utf-8', page);
    if (request.method === 'GET' && path === '/host.js')
      return send(response, 200, 'text/javascript; charset=utf-8', await script);
    const handler = path.startsWith('/api/') ? api[path.slice(5)] : undefined;
    if (request.method === 'POST' && handler) {
      try {
        const result = await handler(JSON.parse((await bodyOf(request)) || '{}'));
        return send(response, 200, 'application/json', JSON.stringify(result));
      } catch (error) {
        return send(response, 502, 'application/json', JSON.stringify({ error: messageOf(error) }));
      }
    }
    send(response, 404, 'text/plain', 'not found');
  }
  await listen(hostServer, options.port ?? 0, host).catch(async (error) => {
    await closeServer(sandbox);
    throw error;
  });
  return {
    url: `http://${urlHost(host)}:${port(hostServer)}/`,
    sandboxUrl,
    async close() {
      hostServer.closeAllConnections();
      sandbox.closeAllConnections();
      await Promise.all([
        closeServer(hostServer),
        closeServer(sandbox),
        connecting?.then((c) => c.close()),
      ]);
    },
  };
}

/** The host page's script with AppBridge, bundled for the browser. */
async function bundleHostScript(projectDir: string | undefined): Promise<string> {
  const resolveDir = [projectDir, import.meta.dirname].find(
    (dir) => dir !== undefined && resolves(dir, '@modelcontextprotocol/ext-apps/app-bridge'),
  );
  if (!resolveDir)
    throw new Error(
      'The preview needs @modelcontextprotocol/ext-apps for its AppBridge. Fix: npm install -D @modelcontextprotocol/ext-apps in the project.',
    );
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: HOST_SCRIPT, resolveDir, loader: 'js', sourcefile: 'preview-host.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: true,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

function resolves(dir: string, name: string): boolean {
  try {
    createRequire(`${dir}/`).resolve(name);
    return true;
  } catch {
    return false;
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function port(server: Server): number {
  return (server.address() as AddressInfo).port;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
