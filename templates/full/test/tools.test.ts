import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, expect, it } from 'vitest';
import { createLibraryServer } from '../src/server.js';

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A client that can show forms; `answers` are what the user fills in, in order. */
async function connect(answers: unknown[] = []): Promise<{ client: TestClient; asked: unknown[] }> {
  const asked: unknown[] = [];
  client = await connectTestClient(createLibraryServer(), {
    capabilities: { elicitation: {} },
    handlers: {
      'elicitation/create': (params) => {
        asked.push(params);
        return answers.shift();
      },
    },
  });
  return { client, asked };
}

it('lists the tools with their input and output schemas', async () => {
  const { client } = await connect();
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['search_books', 'reserve_books']);
  expect(tools[0].outputSchema?.required).toEqual(['books', 'total']);
});

it('searches by title or author and returns structured content', async () => {
  const { client } = await connect();
  const result = await client.callTool('search_books', { query: 'le guin' });
  const found = {
    books: [
      { id: 'earthsea', title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', year: 1968 },
    ],
    total: 1,
  };
  expect(result.structuredContent).toEqual(found);
  expect(JSON.parse(result.content[0].text ?? '')).toEqual(found);
});

it('filters by genre and limits the results', async () => {
  const { client } = await connect();
  const result = await client.callTool('search_books', {
    query: '',
    genre: 'science-fiction',
    limit: 2,
  });
  expect(result.structuredContent).toEqual({
    books: [
      { id: 'foundation', title: 'Foundation', author: 'Isaac Asimov', year: 1951 },
      { id: 'dune', title: 'Dune', author: 'Frank Herbert', year: 1965 },
    ],
    total: 3,
  });
});

it('reserves after the user confirms, reporting progress', async () => {
  const { client, asked } = await connect([
    { action: 'accept', content: { confirm: true, weeks: 2 } },
  ]);
  const result = await client.callTool(
    'reserve_books',
    { ids: ['dune', 'earthsea'] },
    { progressToken: 'reserve' },
  );
  expect(result).toEqual({
    content: [{ type: 'text', text: 'Reserved for 2 week(s): Dune, A Wizard of Earthsea.' }],
  });
  expect(asked).toEqual([
    {
      message: 'Reserve Dune, A Wizard of Earthsea?',
      requestedSchema: {
        type: 'object',
        properties: {
          confirm: { type: 'boolean', description: 'Reserve these books?' },
          weeks: {
            type: 'integer',
            minimum: 1,
            maximum: 4,
            description: 'For how many weeks (1 to 4)',
          },
        },
        required: ['confirm', 'weeks'],
      },
    },
  ]);
  expect(
    client.notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params),
  ).toEqual([
    { progressToken: 'reserve', progress: 0, total: 2, message: 'Reserving Dune' },
    { progressToken: 'reserve', progress: 1, total: 2, message: 'Reserving A Wizard of Earthsea' },
  ]);
});

it('reserves nothing when the user declines', async () => {
  const { client } = await connect([{ action: 'decline' }]);
  expect(await client.callTool('reserve_books', { ids: ['dune'] })).toEqual({
    content: [{ type: 'text', text: 'Nothing was reserved.' }],
  });
});

it('tells the model when an id is unknown', async () => {
  const { client, asked } = await connect();
  expect(await client.callTool('reserve_books', { ids: ['dune', 'moby-dick'] })).toEqual({
    content: [{ type: 'text', text: 'No book has the id "moby-dick"; search_books finds the ids' }],
    isError: true,
  });
  expect(asked).toEqual([]);
});
