import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from '@mcp-fw/core/node';
import { fromOpenAPI } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

// Every Petstore operation, end to end: official client → MCP over HTTP → fromOpenAPI → a real
// HTTP upstream. SDK 1.x negotiates 2025-11-25; client 2.x negotiates 2026-07-28.
const FIXTURES = join(import.meta.dirname, 'fixtures');
const SPECS = {
  '3.0 (YAML file)': join(FIXTURES, 'petstore-expanded.yaml'),
  '3.1 (JSON object)': JSON.parse(
    readFileSync(join(FIXTURES, 'petstore-expanded-3.1.json'), 'utf8'),
  ),
  'Swagger 2.0 (YAML file)': join(FIXTURES, 'petstore-expanded-swagger-2.0.yaml'),
};

interface Peer {
  version: string;
  listTools(): Promise<{ tools: any[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  listResources(): Promise<{ resources: any[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: any[] }>;
  readResource(uri: string): Promise<{ contents: any[] }>;
  close(): Promise<void>;
}

async function v1(url: string): Promise<Peer> {
  const client = new ClientV1({ name: 'openapi-v1', version: '1.0.0' });
  const transport = new HttpV1(new URL(url));
  await client.connect(transport);
  return {
    // SDK 1.x keeps the negotiated version on its transport.
    version: String((transport as unknown as { protocolVersion?: string }).protocolVersion),
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

async function v2(url: string): Promise<Peer> {
  const client = new ClientV2(
    { name: 'openapi-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' as const } },
  );
  await client.connect(new HttpV2(new URL(url)));
  return {
    version: client.getNegotiatedProtocolVersion() ?? '',
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

const CLIENTS: [string, string, (url: string) => Promise<Peer>][] = [
  ['SDK v1', '2025-11-25', v1],
  ['client v2', '2026-07-28', v2],
];

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function serve(
  spec: unknown,
  connect: (url: string) => Promise<Peer>,
  routeMaps = [] as any[],
) {
  const upstream = await startUpstream();
  cleanups.push(upstream.close);
  const server = await fromOpenAPI(spec as any, { baseUrl: upstream.url, routeMaps });
  const http = await serveHttp(server, { port: 0 });
  cleanups.push(http.close);
  const peer = await connect(http.url);
  cleanups.push(peer.close);
  return { peer, upstream };
}

describe.each(Object.entries(SPECS))('Petstore %s', (_label, spec) => {
  describe.each(CLIENTS)('%s', (_name, version, connect) => {
    it(`every Petstore operation is callable end to end at ${version}`, async () => {
      const { peer, upstream } = await serve(spec, connect);
      expect(peer.version).toBe(version);
      const { tools } = await peer.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'findPets',
        'addPet',
        'find_pet_by_id',
        'deletePet',
      ]);
      const find = tools.find((t) => t.name === 'find_pet_by_id');
      expect(find.inputSchema).toMatchObject({
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer' } },
      });
      expect(find.outputSchema).toMatchObject({ type: 'object' });

      const list = await peer.callTool('findPets', { tags: ['dog'], limit: 5 });
      expect(list.isError).toBeFalsy();
      expect(list.structuredContent).toEqual({ result: [{ id: 1, name: 'Rex', tag: 'dog' }] });
      expect(upstream.seen.at(-1)?.url).toBe('/api/pets?tags=dog&limit=5');

      const added = await peer.callTool('addPet', { name: 'Kit', tag: 'cat' });
      expect(added.structuredContent).toEqual({ id: 3, name: 'Kit', tag: 'cat' });
      expect(JSON.parse(upstream.seen.at(-1)?.body ?? '')).toEqual({ name: 'Kit', tag: 'cat' });
      expect(upstream.seen.at(-1)?.headers['content-type']).toBe('application/json');

      const one = await peer.callTool('find_pet_by_id', { id: 3 });
      expect(one.structuredContent).toEqual({ id: 3, name: 'Kit', tag: 'cat' });

      const gone = await peer.callTool('deletePet', { id: 3 });
      expect(gone.isError).toBeFalsy();
      expect(gone.content[0].text).toBe('HTTP 204 (no body)');

      const missing = await peer.callTool('find_pet_by_id', { id: 3 });
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toContain('HTTP 404');
      expect(missing.content[0].text).toContain('no pet 3');
    });

    it(`GET routes served as a resource and a resource template at ${version}`, async () => {
      const { peer } = await serve(spec, connect, [
        { methods: ['GET'], pattern: /\{/, type: 'template' },
        { methods: ['GET'], type: 'resource' },
      ]);
      expect((await peer.listTools()).tools.map((t) => t.name)).toEqual(['addPet', 'deletePet']);
      expect((await peer.listResources()).resources.map((r) => r.uri)).toEqual([
        'openapi://findPets',
      ]);
      expect(
        (await peer.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
      ).toEqual(['openapi://find_pet_by_id/{id}']);
      const all = await peer.readResource('openapi://findPets');
      expect(JSON.parse(all.contents[0].text)).toHaveLength(2);
      const rex = await peer.readResource('openapi://find_pet_by_id/1');
      expect(rex.contents[0]).toMatchObject({ mimeType: 'application/json' });
      expect(JSON.parse(rex.contents[0].text)).toEqual({ id: 1, name: 'Rex', tag: 'dog' });
    });
  });
});
