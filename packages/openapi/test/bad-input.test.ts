import { StartupError } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOpenAPI, OpenAPIError } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

const BASE = 'http://127.0.0.1:9/api';
const info = { title: 'Bad', version: '1.0.0' };
const ok = { '200': { description: 'ok' } };

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function refusal(
  spec: unknown,
  options: Record<string, unknown> = {},
): Promise<OpenAPIError> {
  const error = await fromOpenAPI(spec as never, { baseUrl: BASE, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAPIError);
  expect(error).toBeInstanceOf(StartupError);
  return error as OpenAPIError;
}

describe('bad OpenAPI documents are refused at startup, naming the JSON pointer and the fix', () => {
  it('an invalid spec names the pointer of the problem and the fix', async () => {
    const error = await refusal({
      openapi: '3.0.3',
      info,
      paths: {
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'q', in: 'nowhere', schema: {} }],
            responses: ok,
          },
        },
      },
    });
    expect(error.pointer).toBe('#/paths/~1a/get/parameters/0/in');
    expect(error.message).toContain('#/paths/~1a/get/parameters/0/in');
    expect(error.message).toContain('Fix:');
  });

  it('a $ref to nothing names the pointer of the reference', async () => {
    const error = await refusal({
      openapi: '3.1.0',
      info,
      paths: {
        '/a': {
          get: {
            operationId: 'a',
            responses: { '200': { $ref: '#/components/responses/Missing' } },
          },
        },
      },
    });
    expect(error.message).toContain('#/paths/~1a/get/responses/200');
    expect(error.message).toMatch(/Fix:/);
  });

  it('an operation without operationId names the operation pointer and the fix', async () => {
    const error = await refusal({
      openapi: '3.0.3',
      info,
      paths: { '/pets': { get: { responses: ok } } },
    });
    expect(error.pointer).toBe('#/paths/~1pets/get');
    expect(error.message).toContain('has no operationId');
    expect(error.message).toContain("names: { 'GET /pets': ");
  });

  it('an operation without operationId is served under the name given in names', async () => {
    const server = await fromOpenAPI(
      { openapi: '3.0.3', info, paths: { '/pets': { get: { responses: ok } } } },
      { baseUrl: BASE, names: { 'GET /pets': 'list_pets' } },
    );
    const client = await connectTestClient(server);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_pets']);
    await client.close();
  });

  it('conflicting names: two operations with one operationId name the second and the fix', async () => {
    const error = await refusal({
      openapi: '3.0.3',
      info,
      paths: {
        '/a': { get: { operationId: 'same', responses: ok } },
        '/b': { get: { operationId: 'same', responses: ok } },
      },
    });
    expect(error.pointer).toBe('#/paths/~1b/get/operationId');
    expect(error.message).toContain('#/paths/~1a/get');
    expect(error.message).toContain("names: { 'GET /b'");
  });

  it('conflicting names: two operations given one name in names', async () => {
    const error = await refusal(
      {
        openapi: '3.0.3',
        info,
        paths: {
          '/a': { get: { operationId: 'a', responses: ok } },
          '/b': { get: { operationId: 'b', responses: ok } },
        },
      },
      { names: { a: 'one', b: 'one' } },
    );
    expect(error.code).toBe('DUPLICATE_NAME');
    expect(error.message).toContain('#/paths/~1a/get');
  });

  it('an invalid Swagger 2.0 document names the pointer in the 2.0 document, before conversion', async () => {
    const error = await refusal({
      swagger: '2.0',
      info,
      paths: {
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'q', in: 'nowhere', type: 'string' }],
            responses: ok,
          },
        },
      },
    });
    expect(error.message).toContain('Swagger 2.0 document is invalid');
    expect(error.pointer).toBe('#/paths/~1a/get/parameters/0/in');
    expect(error.message).toContain('Fix:');
  });

  it('a Swagger 1.x document is refused naming the versions read', async () => {
    const error = await refusal({ swagger: '1.2', info, paths: {} });
    expect(error.pointer).toBe('#/swagger');
    expect(error.message).toContain('Swagger 2.0, OpenAPI 3.0.x or 3.1.x');
  });

  it('a missing baseUrl names the option and the fix', async () => {
    const error = await refusal({ openapi: '3.0.3', info, paths: {} }, { baseUrl: undefined });
    expect(error.message).toContain('baseUrl');
    expect(error.message).toContain('Fix:');
  });

  it('a path-parameter route mapped to a resource names the pointer and the fix', async () => {
    const error = await refusal(
      {
        openapi: '3.0.3',
        info,
        paths: {
          '/pets/{id}': {
            get: {
              operationId: 'getPet',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: ok,
            },
          },
        },
      },
      { routeMaps: [{ methods: ['GET'], type: 'resource' }] },
    );
    expect(error.pointer).toBe('#/paths/~1pets~1{id}/get');
    expect(error.message).toContain("type: 'template'");
  });
});

describe('documented fallbacks', () => {
  it('a cyclic schema loads and its tool is callable end to end', async () => {
    const upstream = await startUpstream({
      'POST /api/nodes': (_req, res, body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      },
    });
    cleanups.push(upstream.close);
    const server = await fromOpenAPI(
      {
        openapi: '3.1.0',
        info,
        paths: {
          '/nodes': {
            post: {
              operationId: 'echoNode',
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
              },
              responses: {
                '200': {
                  description: 'ok',
                  content: {
                    'application/json': { schema: { $ref: '#/components/schemas/Node' } },
                  },
                },
              },
            },
          },
        },
        components: {
          schemas: {
            Node: {
              type: 'object',
              required: ['name'],
              properties: {
                name: { type: 'string' },
                children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              },
            },
          },
        },
      },
      { baseUrl: upstream.url },
    );
    const client = await connectTestClient(server);
    const [tool] = (await client.listTools()).tools;
    // The recursion is cut one level down: an open schema naming the type.
    expect(tool?.inputSchema).toMatchObject({
      required: ['name'],
      properties: { children: { items: { description: 'A Node (recursive; not checked here)' } } },
    });
    const tree = { name: 'root', children: [{ name: 'leaf', children: [{ name: 'deeper' }] }] };
    const result = await client.callTool('echoNode', tree);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(tree);
    await client.close();
  });

  it('operationIds that sanitise alike get deterministic suffixes, at most 64 characters', async () => {
    const long = 'x'.repeat(80);
    const server = await fromOpenAPI(
      {
        openapi: '3.0.3',
        info,
        paths: {
          '/a': { get: { operationId: 'list pets', responses: ok } },
          '/b': { get: { operationId: 'list/pets', responses: ok } },
          '/c': { get: { operationId: `${long}a`, responses: ok } },
          '/d': {
            get: {
              operationId: `${long}b`,
              summary: '  Trimmed summary  ',
              description: '\n Details. \n',
              responses: ok,
            },
          },
        },
      },
      { baseUrl: BASE },
    );
    const client = await connectTestClient(server);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual([
      'list_pets',
      'list_pets_2',
      'x'.repeat(64),
      `${'x'.repeat(62)}_2`,
    ]);
    expect(tools[3]?.description).toBe('Trimmed summary\n\nDetails.');
    await client.close();
  });

  it('parameters with one name in two places are renamed name__in', async () => {
    const upstream = await startUpstream({
      'PUT /api/things/7': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      },
    });
    cleanups.push(upstream.close);
    const server = await fromOpenAPI(
      {
        openapi: '3.0.3',
        info,
        paths: {
          '/things/{id}': {
            put: {
              operationId: 'putThing',
              parameters: [
                { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
                { name: 'id', in: 'query', schema: { type: 'string' } },
                { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
              ],
              requestBody: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: { id: { type: 'string' }, label: { type: 'string' } },
                    },
                  },
                },
              },
              responses: ok,
            },
          },
        },
      },
      { baseUrl: upstream.url },
    );
    const client = await connectTestClient(server);
    const [tool] = (await client.listTools()).tools;
    expect(
      Object.keys((tool?.inputSchema as { properties: object } | undefined)?.properties ?? {}),
    ).toEqual(['id__path', 'id__query', 'X-Trace', 'id__body', 'label']);
    const result = await client.callTool('putThing', {
      id__path: 7,
      id__query: 'q',
      'X-Trace': 't1',
      id__body: 'b',
      label: 'L',
    });
    expect(result.isError).toBeFalsy();
    const seen = upstream.seen.at(-1);
    expect(seen?.url).toBe('/api/things/7?id=q');
    expect(seen?.headers['x-trace']).toBe('t1');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ id: 'b', label: 'L' });
    await client.close();
  });
});
