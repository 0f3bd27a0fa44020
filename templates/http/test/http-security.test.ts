import { createHttpHandler, type McpHttpHandler } from '@mcp-fw/core/http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createNotesServer } from '../src/server.js';

// The same HTTP handler `npm start` serves, called with web-standard Requests: no port needed.
let mcp: McpHttpHandler;
beforeEach(() => {
  mcp = createHttpHandler(createNotesServer());
});
afterEach(() => mcp.close());

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  },
};

function initialize(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return mcp.fetch(
    new Request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(INITIALIZE),
    }),
  );
}

it('answers a local client and opens a session', async () => {
  const response = await initialize('http://127.0.0.1:3000/mcp');
  expect(response.status).toBe(200);
  expect(response.headers.get('mcp-session-id')).toMatch(/\S+/);
  const body = (await response.json()) as { result: { serverInfo: unknown } };
  expect(body.result.serverInfo).toEqual({ name: 'mcp-fw-template-http', version: '0.1.0' });
});

it('refuses a web page from another origin', async () => {
  const response = await initialize('http://127.0.0.1:3000/mcp', {
    origin: 'https://evil.example',
  });
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: 'Forbidden: Origin https://evil.example is not allowed' },
  });
});

it('refuses a request addressed to another host name (DNS rebinding)', async () => {
  const response = await initialize('http://evil.example:3000/mcp');
  expect(response.status).toBe(403);
  const body = (await response.json()) as { error: { message: string } };
  expect(body.error.message).toBe('Forbidden: Host "evil.example:3000" is not allowed');
});
