import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, expect, it } from 'vitest';
import { createNotesServer } from '../src/server.js';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(server = createNotesServer()): Promise<TestClient> {
  const client = await connectTestClient(server);
  clients.push(client);
  return client;
}

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

it('introduces itself and lists its tools', async () => {
  const client = await connect();
  expect(client.initializeResult.serverInfo).toEqual({
    name: 'mcp-fw-template-http',
    version: '0.1.0',
  });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['add_note', 'list_notes']);
});

it('saves notes and lists them', async () => {
  const client = await connect();
  expect(await client.callTool('list_notes', {})).toEqual(text('No notes yet.'));
  expect(await client.callTool('add_note', { text: 'Buy milk' })).toEqual(text('Saved note 1.'));
  expect(await client.callTool('add_note', { text: 'Call Ada' })).toEqual(text('Saved note 2.'));
  expect(await client.callTool('list_notes', {})).toEqual(text('1. Buy milk\n2. Call Ada'));
  expect(await client.readResource('notes://all')).toEqual({
    contents: [
      {
        uri: 'notes://all',
        mimeType: 'application/json',
        text: JSON.stringify([
          { id: 1, text: 'Buy milk' },
          { id: 2, text: 'Call Ada' },
        ]),
      },
    ],
  });
});

it('shares the notes between the sessions of one server', async () => {
  const server = createNotesServer();
  const first = await connect(server);
  const second = await connect(server);
  await first.callTool('add_note', { text: 'Seen by everyone' });
  expect(await second.callTool('list_notes', {})).toEqual(text('1. Seen by everyone'));
});
