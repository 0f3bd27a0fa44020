import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOpenAPI, type FromOpenAPIOptions } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

// Upstream safety against a real node:http upstream: what the client sees when the API is
// slow, too big, redirects elsewhere, fails, or answers bytes; and the credentials it gets.
const ok = (schema?: unknown) => ({
  '200': { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) },
});
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Safety', version: '1.0.0' },
  paths: {
    '/slow': { get: { operationId: 'slow', responses: ok() } },
    '/big': { get: { operationId: 'big', responses: ok() } },
    '/away': { get: { operationId: 'away', responses: ok() } },
    '/here': { get: { operationId: 'here', responses: ok() } },
    '/fail': { get: { operationId: 'fail', responses: ok() } },
    '/image': {
      get: {
        operationId: 'image',
        responses: { '200': { description: 'png', content: { 'image/png': {} } } },
      },
    },
    '/pets/{id}/photos': {
      get: {
        operationId: 'photos',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok(),
      },
    },
    '/echo': {
      get: {
        operationId: 'echo',
        parameters: [
          { name: 'count', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
        ],
        responses: ok({ type: 'object' }),
      },
    },
  },
};

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup(options: Partial<FromOpenAPIOptions> = {}) {
  const elsewhere = await startUpstream({
    'GET /stolen': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
    },
  });
  cleanups.push(elsewhere.close);
  const upstream = await startUpstream({
    'GET /api/slow': (_req, res) => {
      const timer = setTimeout(() => res.end('late'), 5_000);
      res.on('close', () => clearTimeout(timer));
    },
    'GET /api/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // Chunked (no content-length), so the cap is enforced while reading, not from a header.
      for (let i = 0; i < 4; i++) res.write('x'.repeat(1024));
      res.end('x');
    },
    'GET /api/away': (_req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}/stolen` }).end();
    },
    'GET /api/here': (_req, res) => {
      res.writeHead(302, { location: '/api/echo?count=2' }).end();
    },
    'GET /api/fail': (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end(`maintenance ${'.'.repeat(2000)}`);
    },
    'GET /api/image': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]));
    },
    'GET /api/echo': (req, res, _body, url) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          count: url.searchParams.get('count'),
          authorization: req.headers.authorization ?? null,
          key: req.headers['x-api-key'] ?? null,
          cookie: req.headers.cookie ?? null,
          query: url.search,
        }),
      );
    },
  });
  cleanups.push(upstream.close);
  const server = await fromOpenAPI(SPEC, { baseUrl: upstream.url, ...options });
  const client: TestClient = await connectTestClient(server);
  cleanups.push(() => client.close());
  return { client, upstream, elsewhere };
}

describe('upstream safety', () => {
  it('a slow upstream is cut at timeoutMs and the error names timeoutMs', async () => {
    const { client } = await setup({ timeoutMs: 300 });
    const started = Date.now();
    const result = await client.callTool('slow', {});
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('within 300 ms');
    expect(JSON.stringify(result.content)).toContain('timeoutMs');
  });

  it('an answer over maxResponseBytes is not read and the error names maxResponseBytes', async () => {
    const { client } = await setup({ maxResponseBytes: 1024 });
    const result = await client.callTool('big', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('maxResponseBytes (1024 bytes)');
  });

  it('a redirect to another host is not followed and no credentials reach it', async () => {
    const { client, elsewhere } = await setup({ auth: { type: 'bearer', token: 'secret' } });
    const result = await client.callTool('away', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('another host');
    expect(elsewhere.seen).toEqual([]);
  });

  it('a redirect on the same host is followed', async () => {
    const { client } = await setup();
    const result = await client.callTool('here', {});
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('\\"count\\":\\"2\\"');
  });

  it('a non-2xx answer is an isError result with the status and a body excerpt', async () => {
    const { client } = await setup();
    const result = await client.callTool('fail', {});
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('HTTP 503');
    expect(text).toContain('maintenance');
    expect(text.length).toBeLessThan(700);
  });

  it('a binary answer is resource content', async () => {
    const { client, upstream } = await setup();
    const result = await client.callTool('image', {});
    expect(result.content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: `${upstream.url}/image`,
          mimeType: 'image/png',
          blob: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]).toString('base64'),
        },
      },
    ]);
  });

  it('the request is validated before it is sent', async () => {
    const { client, upstream } = await setup();
    const before = upstream.seen.length;
    const result = await client.callTool('echo', { count: 0 });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('count');
    expect(upstream.seen.length).toBe(before);
  });

  it.each([
    ['bearer', { type: 'bearer', token: () => 'tok-1' }, { authorization: 'Bearer tok-1' }],
    [
      'basic',
      { type: 'basic', username: 'ada', password: 'pw' },
      { authorization: `Basic ${btoa('ada:pw')}` },
    ],
    [
      'api key header',
      { type: 'apiKey', in: 'header', name: 'X-Api-Key', value: 'k1' },
      { key: 'k1' },
    ],
    [
      'api key query',
      { type: 'apiKey', in: 'query', name: 'api_key', value: 'k2' },
      { query: '?count=1&api_key=k2' },
    ],
    [
      'api key cookie',
      { type: 'apiKey', in: 'cookie', name: 'session', value: 'k 3' },
      { cookie: 'session=k%203' },
    ],
  ] as const)('upstream auth: %s', async (_label, auth, expected) => {
    const { client } = await setup({ auth: auth as FromOpenAPIOptions['auth'] });
    const result = await client.callTool('echo', { count: 1 });
    expect(result.structuredContent).toMatchObject(expected);
  });

  it('a response schema over maxOutputSchemaBytes is not declared and the answer comes back as JSON text', async () => {
    const { client } = await setup({ maxOutputSchemaBytes: 64 });
    const small = await setup({});
    const schemaOf = async (c: TestClient) =>
      (await c.listTools()).tools.find((t) => t.name === 'echo')?.outputSchema;
    // The echo schema ({ type: 'object' }) is 17 bytes; pad it over 64 through the document.
    expect(await schemaOf(small.client)).toEqual({ type: 'object' });
    const big = await fromOpenAPI(
      {
        ...SPEC,
        paths: {
          '/echo': {
            get: {
              ...SPEC.paths['/echo'].get,
              responses: ok({ type: 'object', description: 'x'.repeat(100) }),
            },
          },
        },
      },
      { baseUrl: small.upstream.url, maxOutputSchemaBytes: 64 },
    );
    const bigClient = await connectTestClient(big);
    cleanups.push(() => bigClient.close());
    expect(await schemaOf(bigClient)).toBeUndefined();
    const result = await bigClient.callTool('echo', { count: 1 });
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ count: '1' });
    expect(await schemaOf(client)).toEqual({ type: 'object' });
  });

  it.each(['..', '.'])(
    'a path parameter of dots (%s) is refused and nothing is sent: no path traversal',
    async (id) => {
      const { client, upstream } = await setup();
      const before = upstream.seen.length;
      const result = await client.callTool('photos', { id });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('path parameter \\"id\\"');
      expect(upstream.seen.length).toBe(before);
    },
  );

  it('a slash or an escaped dot in a path parameter stays inside one segment', async () => {
    const { client, upstream } = await setup();
    await client.callTool('photos', { id: '../../admin' });
    await client.callTool('photos', { id: '%2e%2e' });
    expect(upstream.seen.map((r) => r.url)).toEqual([
      '/api/pets/..%2F..%2Fadmin/photos',
      '/api/pets/%252e%252e/photos',
    ]);
  });

  it('a document path that climbs out of baseUrl is refused and nothing is sent', async () => {
    const upstream = await startUpstream();
    cleanups.push(upstream.close);
    const server = await fromOpenAPI(
      {
        openapi: '3.1.0',
        info: { title: 'Climb', version: '1' },
        paths: { '/../admin': { get: { operationId: 'admin', responses: ok() } } },
      },
      { baseUrl: upstream.url },
    );
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    const result = await client.callTool('admin', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('would leave baseUrl');
    expect(upstream.seen).toEqual([]);
  });

  it("the document's servers are never called: requests go to baseUrl only", async () => {
    const { upstream, elsewhere } = await setup();
    const server = await fromOpenAPI(
      { ...SPEC, servers: [{ url: `${elsewhere.origin}/api` }] },
      { baseUrl: upstream.url },
    );
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    const result = await client.callTool('echo', { count: 1 });
    expect(result.isError).toBeFalsy();
    expect(elsewhere.seen).toEqual([]);
    expect(upstream.seen.at(-1)?.url).toBe('/api/echo?count=1');
  });
});
