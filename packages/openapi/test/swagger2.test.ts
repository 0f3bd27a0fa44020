import { join } from 'node:path';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOpenAPI } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

// Swagger 2.0 specifics that survive the conversion to 3.0: array serialisation
// (collectionFormat) and `in: body`. The whole Petstore is in petstore-official-clients.test.ts.
const SWAGGER = join(import.meta.dirname, 'fixtures', 'petstore-expanded-swagger-2.0.yaml');

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe('Swagger 2.0', () => {
  it('collectionFormat csv sends one comma-joined query parameter', async () => {
    const upstream = await startUpstream();
    cleanups.push(upstream.close);
    const client = await connectTestClient(await fromOpenAPI(SWAGGER, { baseUrl: upstream.url }));
    cleanups.push(() => client.close());
    const result = await client.callTool('findPets', { tags: ['dog', 'cat'] });
    expect(upstream.seen.at(-1)?.url).toBe('/api/pets?tags=dog,cat');
    expect(result.structuredContent).toEqual({
      result: [
        { id: 1, name: 'Rex', tag: 'dog' },
        { id: 2, name: 'Tom', tag: 'cat' },
      ],
    });
  });

  it('an in: body parameter becomes the JSON request body, its properties the arguments', async () => {
    const server = await fromOpenAPI(SWAGGER, { baseUrl: 'http://127.0.0.1:9/api' });
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'addPet')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, tag: { type: 'string' } },
      required: ['name'],
    });
  });

  it('3.x query arrays explode by default; explode: false and pipeDelimited join', async () => {
    const upstream = await startUpstream({
      'GET /api/q': (_req, res) => {
        res.writeHead(204).end();
      },
    });
    cleanups.push(upstream.close);
    const arr = { type: 'array', items: { type: 'string' } };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Q', version: '1' },
      paths: {
        '/q': {
          get: {
            operationId: 'q',
            parameters: [
              { name: 'a', in: 'query', schema: arr },
              { name: 'b', in: 'query', explode: false, schema: arr },
              { name: 'c', in: 'query', style: 'pipeDelimited', explode: false, schema: arr },
            ],
            responses: { '204': { description: 'none' } },
          },
        },
      },
    };
    const client = await connectTestClient(await fromOpenAPI(spec, { baseUrl: upstream.url }));
    cleanups.push(() => client.close());
    await client.callTool('q', { a: ['x', 'y z'], b: ['x', 'y,z'], c: ['x', 'y'] });
    expect(upstream.seen.at(-1)?.url).toBe('/api/q?a=x&a=y%20z&b=x,y%2Cz&c=x%7Cy');
  });
});
