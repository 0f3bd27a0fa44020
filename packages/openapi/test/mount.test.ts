import { join } from 'node:path';
import { createServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, expect, it } from 'vitest';
import { fromOpenAPI } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

it('the server fromOpenAPI returns mounts under a namespace, with transforms and filters', async () => {
  const upstream = await startUpstream();
  cleanups.push(upstream.close);
  const petstore = await fromOpenAPI(
    join(import.meta.dirname, 'fixtures', 'petstore-expanded.yaml'),
    {
      baseUrl: upstream.url,
    },
  );
  const app = createServer({ name: 'app', version: '1.0.0' });
  app.mount(petstore, { namespace: 'pets' });
  app.transform('pets_find_pet_by_id', { name: 'pet', description: 'One pet by its id' });
  app.filter({ exclude: { names: ['pets_deletePet'] } });
  const client = await connectTestClient(app);
  cleanups.push(() => client.close());
  const tools = (await client.listTools()).tools;
  expect(tools.map((t) => t.name)).toEqual(['pets_findPets', 'pets_addPet', 'pet']);
  expect(tools[2]?.description).toBe('One pet by its id');
  expect((await client.callTool('pet', { id: 1 })).structuredContent).toEqual({
    id: 1,
    name: 'Rex',
    tag: 'dog',
  });
});
