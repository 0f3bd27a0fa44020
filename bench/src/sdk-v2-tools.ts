// The official SDK v2 benchmark server, shared by the stdio and HTTP servers.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  ADD_DESCRIPTION,
  ECHO_DESCRIPTION,
  extraToolCount,
  extraToolDescription,
  extraToolName,
  SERVER_NAME,
  SERVER_VERSION,
} from './workload.js';

const Operands = z.object({ a: z.number(), b: z.number() });
const EchoInput = z.object({ text: z.string() });
const ExtraInput = z.object({ value: z.string().optional() });
const count = extraToolCount();

/** One SDK server instance; the SDK wants one per connection (stdio) or session (HTTP). */
export function sdkServer(): McpServer {
  const info = { name: SERVER_NAME, version: SERVER_VERSION };
  const server = new McpServer(info, { capabilities: { tools: {} } });
  const add = { description: ADD_DESCRIPTION, inputSchema: Operands };
  server.registerTool('add', add, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  const echo = { description: ECHO_DESCRIPTION, inputSchema: EchoInput };
  server.registerTool('echo', echo, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  for (let i = 0; i < count; i++) {
    const extra = { description: extraToolDescription(i), inputSchema: ExtraInput };
    server.registerTool(extraToolName(i), extra, async () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
  }
  return server;
}
