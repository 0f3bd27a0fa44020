import { request } from 'node:http';
import { serveHttp } from '@mcp-fw/core/node';
import { createProxy, type ProxyServer } from '@mcp-fw/proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FixtureProcess,
  startFixture,
} from '../../../examples/conformance/test/support/fixture-process.ts';
import {
  connectHttpClient,
  type HttpClient,
} from '../../../examples/conformance/test/support/http-clients.ts';
import { mcpSchema } from '../../core/test/support/mcp-schema.ts';

// The 2024-11-05 direction of the bridge: a 2024-11-05 client through the proxy to a 2026-07-28
// server (the conformance fixture, a process, pinned to 2026-07-28). The official suite cannot
// be that client: it speaks only 2025-11-25 and 2026-07-28. So the official SDK 1.x client, over
// the 2024-11-05 transport (HTTP+SSE), pinned to 2024-11-05, drives the equivalent of the suite's
// 2025-11-25 required scenarios that exist in that revision, with the reference values of the
// fixture's contract; every frame it receives is checked against the 2024-11-05 schema. Left
// out, as 2024-11-05 has none of them: elicitation (tools-call-elicitation,
// elicitation-sep1034-defaults, elicitation-sep1330-enums), audio content (tools-call-audio), and
// the Streamable HTTP scenario server-sse-multiple-streams.

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

let fixture: FixtureProcess;
let proxy: ProxyServer;
let front: { url: string; close(): Promise<void> };
let client: HttpClient;
const sampled: unknown[] = [];

beforeAll(async () => {
  fixture = await startFixture();
  proxy = await createProxy(fixture.url.href, {
    connect: { protocolVersion: '2026-07-28' },
    onWarning: () => {},
  });
  front = await serveHttp(proxy, { port: 0 });
  const url = new URL(front.url);
  client = await connectHttpClient(
    '@modelcontextprotocol/sdk 1.x, HTTP+SSE',
    '2024-11-05',
    { url, sseUrl: new URL('/sse', url), stop: async () => {} },
    {
      onSample: (params) => {
        sampled.push(params);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'Paris' },
          model: 'test-model',
          stopReason: 'endTurn',
        };
      },
    },
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await front?.close();
  await proxy?.close();
  await fixture?.stop();
});

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('a 2024-11-05 client (SDK 1.x, HTTP+SSE) through the proxy to a 2026-07-28 server', () => {
  it('the proxy speaks 2026-07-28 upstream', () => {
    expect(proxy.health()).toMatchObject([{ state: 'up', protocolVersion: '2026-07-28' }]);
  });

  it('server-initialize: 2024-11-05 negotiated, with the capabilities of the fixture', () => {
    expect(client.frames[0].message.result).toMatchObject({
      protocolVersion: '2024-11-05',
      serverInfo: { name: 'mcp-fw-proxy' },
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
      },
    });
  });

  it('ping and logging-set-level answer {}', async () => {
    expect(await client.raw.ping()).toEqual({});
    expect(await client.setLoggingLevel('info')).toEqual({});
  });

  it('completion-complete: completes arg1 of test_prompt_with_arguments', async () => {
    const result = await client.raw.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: '' },
    });
    expect(Array.isArray(result.completion.values)).toBe(true);
  });

  it('tools-list: every tool has a description and an object inputSchema', async () => {
    const { tools } = await client.raw.listTools();
    const names = tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'test_simple_text',
        'test_image_content',
        'test_embedded_resource',
        'test_multiple_content_types',
        'test_tool_with_logging',
        'test_tool_with_progress',
        'test_error_handling',
        'test_sampling',
      ]),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toEqual(expect.any(String));
      expect(tool.inputSchema.type, tool.name).toBe('object');
    }
  });

  it('tools-call-simple-text, -image, -embedded-resource, -mixed-content, -error', async () => {
    // Exactly the fixture's result: the 2026-07-28 upstream's resultType and serverInfo stay out.
    expect(await client.callTool('test_simple_text')).toEqual(
      text('This is a simple text response for testing.'),
    );
    expect(await client.callTool('test_image_content', {})).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data: PNG }],
    });
    expect(await client.callTool('test_embedded_resource', {})).toMatchObject({
      content: [
        {
          type: 'resource',
          resource: { uri: expect.any(String), text: 'This is an embedded resource content.' },
        },
      ],
    });
    const mixed = (await client.callTool('test_multiple_content_types', {})) as {
      content: { type: string }[];
    };
    expect(mixed.content.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    expect(await client.callTool('test_error_handling', {})).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.any(String) }],
    });
  });

  it('tools-call-with-logging and -with-progress: the notifications ride the call, before its result', async () => {
    await client.setLoggingLevel('info');
    const before = client.frames.length;
    expect(await client.callTool('test_tool_with_logging', {})).toEqual(
      text('Tool with logging executed successfully'),
    );
    const logs = client.frames
      .slice(before)
      .filter((f) => f.message.method === 'notifications/message')
      .map((f) => f.message.params.data);
    expect(logs).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    const progress: unknown[] = [];
    expect(await client.callTool('test_tool_with_progress', {}, (p) => progress.push(p))).toEqual(
      text('Progress test completed'),
    );
    // SDK 1.x over HTTP+SSE may hand the last step to a handler already gone (see
    // official-clients-http.test.ts); the first two always arrive, in order.
    expect(progress.slice(0, 2)).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
    ]);
  });

  it('tools-call-sampling: the 2026-07-28 server’s input round reaches the 2024-11-05 client as sampling/createMessage', async () => {
    const result = (await client.callTool('test_sampling', {
      prompt: 'What is the capital of France?',
    })) as { content: { text: string }[] };
    expect(result.content[0].text).toContain('Paris');
    expect(sampled).toMatchObject([
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
        ],
      },
    ]);
  });

  it('resources-list, -read-text, -read-binary, -templates-read, -subscribe, -unsubscribe', async () => {
    const { resources } = await client.raw.listResources();
    expect(resources.map((r: { uri: string }) => r.uri)).toEqual(
      expect.arrayContaining(['test://static-text', 'test://static-binary']),
    );
    for (const r of resources) expect(r.name, r.uri).toEqual(expect.any(String));
    expect(await client.readResource('test://static-text')).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
    expect(await client.readResource('test://static-binary')).toMatchObject({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
    });
    const { resourceTemplates } = await client.raw.listResourceTemplates();
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
      'test://template/{id}/data',
    );
    expect(await client.readResource('test://template/123/data')).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });
    expect(await client.raw.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    expect(await client.raw.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
  });

  it('prompts-list, -get-simple, -get-with-args, -get-embedded-resource, -get-with-image', async () => {
    const { prompts } = await client.raw.listPrompts();
    for (const p of prompts) expect(p.description, p.name).toEqual(expect.any(String));
    expect(await client.getPrompt('test_simple_prompt')).toMatchObject({
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    });
    expect(
      await client.getPrompt('test_prompt_with_arguments', {
        arg1: 'testValue1',
        arg2: 'testValue2',
      }),
    ).toMatchObject({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'",
          },
        },
      ],
    });
    expect(
      await client.getPrompt('test_prompt_with_embedded_resource', {
        resourceUri: 'test://example-resource',
      }),
    ).toMatchObject({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: 'test://example-resource',
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
    });
    expect(await client.getPrompt('test_prompt_with_image')).toMatchObject({
      messages: [
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
  });

  it('dns-rebinding-protection: a foreign Host or Origin on the 2024-11-05 stream is refused with 4xx; the proxy’s own host is served', async () => {
    const sse = new URL('/sse', front.url);
    const own = await statusOf(sse, {});
    expect(own).toBe(200);
    expect(await statusOf(sse, { host: 'evil.example.com' })).toBeGreaterThanOrEqual(400);
    expect(await statusOf(sse, { host: 'evil.example.com' })).toBeLessThan(500);
    expect(await statusOf(sse, { origin: 'http://evil.example.com' })).toBeGreaterThanOrEqual(400);
    expect(await statusOf(sse, { origin: 'http://evil.example.com' })).toBeLessThan(500);
  });

  it('every frame the client received is valid 2024-11-05', () => {
    const schema = mcpSchema('2024-11-05');
    const problems = client.frames.flatMap((f) =>
      schema
        .check(f.message, f.requestMethod)
        .map((p) => `${p}\n  in: ${JSON.stringify(f.message)}`),
    );
    expect(problems).toEqual([]);
    expect(client.frames.length).toBeGreaterThan(20);
  });
});

/** The status of a GET with these headers (Host included: fetch cannot set it); the stream is dropped. */
function statusOf(url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}
