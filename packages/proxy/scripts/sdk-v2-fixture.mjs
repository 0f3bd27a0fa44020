// An official SDK v2 server (@modelcontextprotocol/server 2.x, sessionful Streamable HTTP over
// node:http, as its docs deploy it for the 2025 revisions) serving the conformance contract's
// fixtures for the scenarios conformance-through-proxy.mjs runs through the proxy against it:
// the content tools, resources, templates, prompts and completion, with the reference values of
// the suite's server contract (the same as examples/conformance serves). Written for these tests
// from the contract, with the SDK's public API.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** One SDK server per session, as the SDK wants. */
function fixtureServer() {
  const server = new McpServer(
    { name: 'sdk-v2-conformance', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  const none = z.object({});
  server.registerTool(
    'test_simple_text',
    { description: 'Returns simple text content', inputSchema: none },
    async () => text('This is a simple text response for testing.'),
  );
  server.registerTool(
    'test_image_content',
    { description: 'Returns image content', inputSchema: none },
    async () => ({ content: [{ type: 'image', mimeType: 'image/png', data: PNG }] }),
  );
  server.registerTool(
    'test_audio_content',
    { description: 'Returns audio content', inputSchema: none },
    async () => ({ content: [{ type: 'audio', mimeType: 'audio/wav', data: WAV }] }),
  );
  const embedded = {
    type: 'resource',
    resource: {
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    },
  };
  server.registerTool(
    'test_embedded_resource',
    { description: 'Returns an embedded text resource', inputSchema: none },
    async () => ({ content: [embedded] }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Returns text, an image and a resource', inputSchema: none },
    async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_error_handling',
    { description: 'Always fails, as a tool execution error', inputSchema: none },
    async () => ({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    }),
  );
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50, 100 of 100', inputSchema: none },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100 },
          });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return text('Progress test completed');
    },
  );

  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource (a PNG)', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data by id', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );

  server.registerPrompt(
    'test_simple_prompt',
    { description: 'A prompt without arguments' },
    async () => ({
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two required arguments',
      argsSchema: z.object({
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ['testValue1', 'paris', 'park'].filter((v) => v.startsWith(value)),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    async ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      argsSchema: z.object({ resourceUri: z.string().describe('The resource to embed') }),
    },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'Please process the embedded resource above.' },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'A prompt with an image' },
    async () => ({
      messages: [
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
  return server;
}

/**
 * Serves the fixture on a free loopback port: `{ url, close }`. Each `initialize` gets its own
 * transport and server; requests of an unknown session get 404.
 */
export function startSdkV2Fixture() {
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (id !== undefined && !transport) {
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
    if (!transport) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      await fixtureServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${http.address().port}/mcp`,
        close: () =>
          new Promise((done) => {
            http.closeAllConnections();
            http.close(() => done());
          }),
      }),
    ),
  );
}
