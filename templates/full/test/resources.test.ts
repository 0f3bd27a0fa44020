import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLibraryServer } from '../src/server.js';

let client: TestClient;
beforeEach(async () => {
  client = await connectTestClient(createLibraryServer());
});
afterEach(() => client.close());

it('offers the books://{id} template and lists every book through it', async () => {
  const { resourceTemplates } = await client.request('resources/templates/list');
  expect(resourceTemplates).toEqual([
    {
      uriTemplate: 'books://{id}',
      name: 'book',
      title: 'Book',
      description: 'One book of the catalog, as JSON',
      mimeType: 'application/json',
    },
  ]);
  const { resources } = await client.request<{ resources: { uri: string }[] }>('resources/list');
  expect(resources.map((r) => r.uri)).toEqual([
    'books://dune',
    'books://foundation',
    'books://neuromancer',
    'books://the-hobbit',
    'books://earthsea',
    'books://the-big-sleep',
    'books://gaudy-night',
  ]);
});

it('reads one book', async () => {
  expect(await client.readResource('books://dune')).toEqual({
    contents: [
      {
        uri: 'books://dune',
        mimeType: 'application/json',
        text: '{"id":"dune","title":"Dune","author":"Frank Herbert","year":1965,"genre":"science-fiction"}',
      },
    ],
  });
});

it('completes the id as the user types', async () => {
  const { completion } = await client.request<{ completion: { values: string[] } }>(
    'completion/complete',
    {
      ref: { type: 'ref/resource', uri: 'books://{id}' },
      argument: { name: 'id', value: 'the-' },
    },
  );
  expect(completion.values).toEqual(['the-hobbit', 'the-big-sleep']);
});

it('answers an unknown book with a not-found error', async () => {
  await expect(client.readResource('books://moby-dick')).rejects.toThrow(
    'Resource not found: books://moby-dick',
  );
});
