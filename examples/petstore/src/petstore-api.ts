import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pet as the Petstore API stores it. */
export interface Pet {
  id: number;
  name: string;
  tag?: string;
}

/** A running Petstore API: its base URL (`http://127.0.0.1:PORT/api`) and how to stop it. */
export interface PetstoreApi {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The REST API that petstore.yaml describes, in memory, on 127.0.0.1 (a port the system
 * chooses): `GET /api/pets?tags=&limit=`, `POST /api/pets`, `GET /api/pets/{id}`,
 * `DELETE /api/pets/{id}`. It is the example's backend, so the MCP server has a real HTTP API to
 * call without any account or network; point `--base-url` at another deployment instead.
 */
export async function startPetstoreApi(seed: readonly Pet[] = DEFAULT_PETS): Promise<PetstoreApi> {
  const pets = new Map(seed.map((p) => [p.id, { ...p }]));
  let next = Math.max(0, ...pets.keys()) + 1;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://petstore');
    const byId = /^\/api\/pets\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/api/pets' && req.method === 'GET') {
      // `tags=dog&tags=cat` (OpenAPI 3's exploded form) and `tags=dog,cat` both filter.
      const tags = url.searchParams.getAll('tags').flatMap((t) => t.split(','));
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const list = [...pets.values()].filter(
        (p) => tags.length === 0 || tags.includes(p.tag ?? ''),
      );
      return json(res, 200, list.slice(0, Math.max(0, limit)));
    }
    if (url.pathname === '/api/pets' && req.method === 'POST') {
      const input = await body(req);
      if (typeof input?.name !== 'string' || input.name === '')
        return json(res, 400, { code: 400, message: 'name is required' });
      const pet: Pet = { id: next++, name: input.name };
      if (typeof input.tag === 'string') pet.tag = input.tag;
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
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DEFAULT_PETS: readonly Pet[] = [
  { id: 1, name: 'Rex', tag: 'dog' },
  { id: 2, name: 'Tom', tag: 'cat' },
];

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function body(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > 64 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
