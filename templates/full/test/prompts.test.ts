import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLibraryServer } from '../src/server.js';

let client: TestClient;
beforeEach(async () => {
  client = await connectTestClient(createLibraryServer());
});
afterEach(() => client.close());

it('fills in the recommend prompt from the catalog', async () => {
  const prompt = await client.getPrompt('recommend', { genre: 'mystery', mood: 'something cosy' });
  expect(prompt.messages).toEqual([
    {
      role: 'user',
      content: {
        type: 'text',
        text: [
          'Recommend one of these mystery books and say why in two sentences. The reader wants something cosy.',
          '',
          '- The Big Sleep by Raymond Chandler (1939)',
          '- Gaudy Night by Dorothy L. Sayers (1935)',
        ].join('\n'),
      },
    },
  ]);
});

it('completes the genre argument', async () => {
  const { completion } = await client.request<{ completion: { values: string[] } }>(
    'completion/complete',
    {
      ref: { type: 'ref/prompt', name: 'recommend' },
      argument: { name: 'genre', value: 'm' },
    },
  );
  expect(completion.values).toEqual(['mystery']);
});
