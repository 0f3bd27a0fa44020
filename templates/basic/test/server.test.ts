import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { server } from '../src/server.js';

// An in-memory client: no process, no port. It speaks MCP to the server exactly as Claude
// Desktop or any other client would.
let client: TestClient;
beforeEach(async () => {
  client = await connectTestClient(server);
});
afterEach(() => client.close());

it('introduces itself', () => {
  expect(client.initializeResult.serverInfo).toEqual({
    name: 'mcp-fw-template-basic',
    version: '0.1.0',
  });
});

it('lists the greet tool with the input schema read from its signature and JSDoc', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['greet']);
  expect(tools[0].description).toBe('Greets someone by name');
  expect(tools[0].inputSchema).toMatchObject({
    properties: {
      name: { type: 'string', minLength: 1, description: 'Who to greet' },
      language: { enum: ['en', 'fr', 'es', 'de'], default: 'en' },
    },
    required: ['name'],
  });
});

it('greets in the language asked for', async () => {
  expect(await client.callTool('greet', { name: 'Ada' })).toEqual({
    content: [{ type: 'text', text: 'Hello, Ada!' }],
  });
  expect(await client.callTool('greet', { name: 'Ada', language: 'fr' })).toEqual({
    content: [{ type: 'text', text: 'Bonjour, Ada!' }],
  });
});

it('tells the model which argument was wrong', async () => {
  const result = await client.callTool('greet', { name: 'Ada', language: 'it' });
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toContain('language');
});

it('serves the languages resource', async () => {
  const { contents } = await client.readResource('greetings://languages');
  expect(contents).toEqual([
    {
      uri: 'greetings://languages',
      mimeType: 'application/json',
      text: JSON.stringify({ en: 'Hello', fr: 'Bonjour', es: 'Hola', de: 'Hallo' }, null, 2),
    },
  ]);
});

it('fills in the introduce prompt', async () => {
  expect(await client.getPrompt('introduce', { name: 'Ada' })).toEqual({
    description: 'Asks for a short, friendly introduction of someone',
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: 'Write a short, friendly introduction of Ada, then greet them with the greet tool.',
        },
      },
    ],
  });
});
