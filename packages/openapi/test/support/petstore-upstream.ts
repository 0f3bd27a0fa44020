import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the upstream received, for assertions on what fromOpenAPI sent. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body's bytes, for binary and multipart bodies. */
  raw: Buffer;
}

type Route = (
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  url: URL,
) => void | Promise<void>;

/**
 * A real HTTP upstream on loopback serving the petstore-expanded operations under /api (an
 * in-memory store), plus any extra routes a test adds by `METHOD /path`.
 */
export async function startUpstream(extra: Record<string, Route> = {}): Promise<{
  url: string;
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}> {
  const pets = new Map<number, { id: number; name: string; tag?: string | null }>([
    [1, { id: 1, name: 'Rex', tag: 'dog' }],
    [2, { id: 2, name: 'Tom', tag: 'cat' }],
  ]);
  let next = 3;
  const seen: SeenRequest[] = [];
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://upstream');
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, raw });
    const custom = extra[`${req.method} ${url.pathname}`];
    if (custom) return custom(req, res, body, url);
    const byId = /^\/api\/pets\/([^/]+)$/.exec(url.pathname);
    if (url.pathname === '/api/pets' && req.method === 'GET') {
      // `tags=a&tags=b` (3.x, exploded) or `tags=a,b` (Swagger 2.0's csv).
      const tags = url.searchParams.getAll('tags').flatMap((t) => t.split(','));
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const list = [...pets.values()].filter(
        (p) => tags.length === 0 || tags.includes(String(p.tag)),
      );
      return json(res, 200, list.slice(0, limit));
    }
    if (url.pathname === '/api/pets' && req.method === 'POST') {
      const input = JSON.parse(body) as { name?: unknown; tag?: string };
      if (typeof input.name !== 'string')
        return json(res, 400, { code: 400, message: 'name is required' });
      const pet = {
        id: next++,
        name: input.name,
        ...(input.tag !== undefined ? { tag: input.tag } : {}),
      };
      pets.set(pet.id, pet);
      return json(res, 200, pet);
    }
    if (byId && req.method === 'GET') {
      const pet = pets.get(Number(byId[1]));
      return pet
        ? json(res, 200, pet)
        : json(res, 404, { code: 404, message: `no pet ${byId[1]}` });
    }
    if (byId && req.method === 'DELETE') {
      if (!pets.delete(Number(byId[1])))
        return json(res, 404, { code: 404, message: `no pet ${byId[1]}` });
      res.writeHead(204).end();
      return;
    }
    json(res, 404, { code: 404, message: `no route ${req.method} ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/api`,
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
