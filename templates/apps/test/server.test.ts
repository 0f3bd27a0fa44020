import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { server } from '../src/server.js';

// The view is read from its bundle: build it first, as npm run build does.
beforeAll(() => {
  const project = fileURLToPath(new URL('..', import.meta.url));
  execFileSync('npx', ['--no-install', 'mcp-fw', 'build'], { cwd: project, stdio: 'pipe' });
}, 120_000);

// In-memory clients: no process, no port. One declares MCP Apps support the way a host does.
const UI = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};
let clients: TestClient[] = [];
afterEach(async () => {
  for (const client of clients) await client.close();
  clients = [];
});
async function connect(capabilities: Record<string, unknown>): Promise<TestClient> {
  const client = await connectTestClient(server, { capabilities });
  clients.push(client);
  return client;
}

it('a host gets roll_dice with its view and the app-only reroll', async () => {
  const client = await connect(UI);
  const { tools } = await client.listTools();
  expect(tools.map((t) => [t.name, (t._meta as any)?.ui])).toEqual([
    ['roll_dice', { resourceUri: 'ui://dice/table', visibility: ['model', 'app'] }],
    ['reroll', { resourceUri: 'ui://dice/table', visibility: ['app'] }],
  ]);
  const result = await client.callTool('roll_dice', { count: 3 });
  expect(result.content).toEqual([{ type: 'text', text: 'Rolled 3 dice.' }]);
  expect((result.structuredContent as { dice: number[] }).dice).toHaveLength(3);
});

it('the view is one self-contained HTML file, served with its MIME type and _meta.ui', async () => {
  const client = await connect(UI);
  const [view] = (await client.readResource('ui://dice/table')).contents;
  expect(view.mimeType).toBe('text/html;profile=mcp-app');
  expect(view._meta).toEqual({ ui: { prefersBorder: true } });
  expect(view.text).toMatch(/^<!doctype html>/i);
  expect(view.text).toContain('dice-table');
  expect(view.text).not.toMatch(/<script[^>]*\ssrc=/);
});

it('a client without MCP Apps gets the roll as text and no reroll', async () => {
  const client = await connect({});
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['roll_dice']);
  const result = await client.callTool('roll_dice', { count: 2 });
  expect(result.content[0]).toMatchObject({
    type: 'text',
    text: expect.stringMatching(/^Rolled \d, \d\.$/),
  });
});
