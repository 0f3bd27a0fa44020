// The official SDK v2 over Streamable HTTP, sessionful (the legacy-era deployment its docs
// describe): one NodeStreamableHTTPServerTransport and McpServer per session, minted at
// initialize, behind the Host and Origin guards it recommends for node:http. `--json` turns on
// `enableJsonResponse` (JSON answers, as mcp-fw sends for a plain call); without it the SDK
// answers every POST with an SSE stream, its default.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { announce } from './http-server-life.js';
import { sdkServer } from './sdk-v2-tools.js';

const enableJsonResponse = process.argv.includes('--json');
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

async function transportFor(
  sessionId: string | string[] | undefined,
): Promise<NodeStreamableHTTPServerTransport | undefined> {
  if (sessionId !== undefined)
    return typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
  // No session yet: the transport itself refuses anything but initialize.
  const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse,
    onsessioninitialized: (id) => void sessions.set(id, transport),
    onsessionclosed: (id) => void sessions.delete(id),
  });
  await sdkServer().connect(transport);
  return transport;
}

const server = createServer(async (req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  const transport = await transportFor(req.headers['mcp-session-id']);
  if (!transport) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32001, message: 'Session not found' },
      }),
    );
    return;
  }
  await transport.handleRequest(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
);
