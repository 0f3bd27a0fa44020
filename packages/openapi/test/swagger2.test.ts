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

  it('in: formData with a type: file parameter becomes a multipart upload of a base64 argument', async () => {
    const upstream = await startUpstream({
      'POST /api/pet/7/uploadImage': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"code":200,"message":"stored"}');
      },
    });
    cleanups.push(upstream.close);
    // The shape of the Swagger Petstore's uploadFile operation.
    const spec = {
      swagger: '2.0',
      info: { title: 'Upload', version: '1' },
      paths: {
        '/pet/{petId}/uploadImage': {
          post: {
            operationId: 'uploadFile',
            consumes: ['multipart/form-data'],
            produces: ['application/json'],
            parameters: [
              { name: 'petId', in: 'path', required: true, type: 'integer' },
              { name: 'additionalMetadata', in: 'formData', required: false, type: 'string' },
              { name: 'file', in: 'formData', required: true, type: 'file' },
            ],
            responses: { '200': { description: 'ok', schema: { type: 'object' } } },
          },
        },
      },
    };
    const client = await connectTestClient(await fromOpenAPI(spec, { baseUrl: upstream.url }));
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    // swagger2openapi leaves the converted requestBody optional (no `required: true`), so only
    // the path parameter is a required argument.
    expect(tools[0]?.inputSchema).toMatchObject({
      properties: { file: { type: 'string', contentEncoding: 'base64' } },
      required: ['petId'],
    });
    const bytes = Buffer.from('GIF89a-not-really');
    const result = await client.callTool('uploadFile', {
      petId: 7,
      additionalMetadata: 'front',
      file: bytes.toString('base64'),
    });
    expect(result.isError).toBeFalsy();
    const seen = upstream.seen.at(-1);
    const form = await new Response(seen?.raw, {
      headers: { 'content-type': String(seen?.headers['content-type']) },
    }).formData();
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer())).toEqual(bytes);
    expect(form.get('additionalMetadata')).toBe('front');
  });
});
