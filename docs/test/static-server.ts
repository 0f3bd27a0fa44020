// Serves the built site on loopback as a static host with VitePress' clean URLs would:
// `/guide/tools` → `guide/tools.html`, `/api/` → `api/index.html`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, relative } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The file a URL path is served from, or undefined for a 404. */
export function fileFor(dist: string, urlPath: string): string | undefined {
  const path = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, '');
  const candidates = path.endsWith('/')
    ? [join(dist, path, 'index.html')]
    : [join(dist, path), join(dist, `${path}.html`)];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

export async function serveSite(dist: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const file = fileFor(dist, new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res
        .writeHead(404, { 'content-type': TYPES['.html'] })
        .end(readFileSync(join(dist, '404.html')));
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Every page of the built site (its HTML files; the assets folder left out). */
export function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : htmlFiles(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

/** A page's URL path, e.g. `guide/tools.html` → `/guide/tools`. */
export function urlOf(dist: string, file: string): string {
  return `/${relative(dist, file)}`.replace(/index\.html$/, '').replace(/\.html$/, '');
}
