import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromOpenAPI } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

const YAML = readFileSync(join(import.meta.dirname, 'fixtures', 'petstore-expanded.yaml'), 'utf8');

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe('where the document comes from', () => {
  it.each([
    ['an http URL', 'url'],
    ['YAML text', 'text'],
  ] as const)('the Petstore loads from %s', async (_label, kind) => {
    const upstream = await startUpstream({
      'GET /openapi.yaml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/yaml' });
        res.end(YAML);
      },
    });
    cleanups.push(upstream.close);
    const source = kind === 'url' ? `${upstream.origin}/openapi.yaml` : YAML;
    const server = await fromOpenAPI(source, { baseUrl: upstream.url });
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'findPets',
      'addPet',
      'find_pet_by_id',
      'deletePet',
    ]);
    expect((await client.callTool('find_pet_by_id', { id: 2 })).structuredContent).toEqual({
      id: 2,
      name: 'Tom',
      tag: 'cat',
    });
  });

  it('a form-encoded body is sent as application/x-www-form-urlencoded', async () => {
    const upstream = await startUpstream({
      'POST /api/login': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('welcome');
      },
    });
    cleanups.push(upstream.close);
    const server = await fromOpenAPI(
      {
        openapi: '3.0.3',
        info: { title: 'Form', version: '1' },
        paths: {
          '/login': {
            post: {
              operationId: 'login',
              requestBody: {
                required: true,
                content: {
                  'application/x-www-form-urlencoded': {
                    schema: {
                      type: 'object',
                      required: ['user'],
                      properties: { user: { type: 'string' }, remember: { type: 'boolean' } },
                    },
                  },
                },
              },
              responses: { '200': { description: 'ok', content: { 'text/plain': {} } } },
            },
          },
        },
      },
      { baseUrl: upstream.url },
    );
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    const result = await client.callTool('login', { user: 'ada lovelace', remember: true });
    expect(result.content).toEqual([{ type: 'text', text: 'welcome' }]);
    const seen = upstream.seen.at(-1);
    expect(seen?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen?.body).toBe('user=ada+lovelace&remember=true');
  });

  it('loading a document writes nothing to stdout (stdio servers send only frames there)', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    try {
      await fromOpenAPI(YAML, { baseUrl: 'http://127.0.0.1:9/api' });
      await fromOpenAPI(
        {
          openapi: '3.0.3',
          info: { title: 'x', version: '1' },
          paths: { '/a': { get: { responses: {} } } },
        },
        { baseUrl: 'http://127.0.0.1:9' },
      ).catch(() => undefined);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});
