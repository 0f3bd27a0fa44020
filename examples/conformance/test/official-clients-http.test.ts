import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpSchema } from '../../../packages/core/test/support/mcp-schema.ts';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';
import {
  connectHttpClient,
  type HttpClient,
  type HttpClientKind,
  type ServerFrame,
} from './support/http-clients.ts';

// Each official client over each HTTP transport, at the revisions it can be pinned to there.
const CASES: [HttpClientKind, string][] = [
  ['@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-03-26'],
  ['@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-06-18'],
  ['@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-11-25'],
  ['@modelcontextprotocol/sdk 1.x, Streamable HTTP', '2025-06-18'],
  ['@modelcontextprotocol/sdk 1.x, Streamable HTTP', '2025-11-25'],
  ['@modelcontextprotocol/sdk 1.x, HTTP+SSE', '2024-11-05'],
  ['@modelcontextprotocol/sdk 1.x, HTTP+SSE', '2025-11-25'],
];

const CONTACT = { username: 'alice', email: 'alice@example.com' };
const STEPS = [
  { progress: 0, total: 100 },
  { progress: 50, total: 100 },
  { progress: 100, total: 100 },
];

let fixture: FixtureProcess;
let client: HttpClient | undefined;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture?.stop());
afterEach(async () => {
  await client?.close();
  client = undefined;
});

function logMessages(frames: readonly ServerFrame[]): unknown[] {
  return frames
    .filter((f) => f.message.method === 'notifications/message')
    .map((f) => f.message.params);
}

describe.each(CASES)('the conformance fixture with %s', (kind, revision) => {
  it(`serves tools, logs, progress, resources, prompts, elicitation at ${revision}; all frames schema-valid`, async () => {
    const elicited: unknown[] = [];
    const onElicit = (params: unknown) => {
      elicited.push(params);
      return { action: 'accept', content: CONTACT };
    };
    client = await connectHttpClient(kind, revision, fixture, { onElicit });
    const { frames } = client;
    expect(frames[0].message.result).toMatchObject({
      protocolVersion: revision,
      serverInfo: { name: 'mcp-fw-conformance', version: '0.1.0' },
    });

    expect(await client.callTool('test_simple_text')).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });

    const progress: unknown[] = [];
    const before = frames.length;
    const done = { content: [{ type: 'text', text: 'Progress test completed' }] };
    expect(await client.callTool('test_tool_with_progress', {}, (p) => progress.push(p))).toEqual(
      done,
    );
    // The server echoes the token (the SDKs use the request id) on each step, before the result.
    const { id } = frames.at(-1)!.message;
    expect(frames.slice(before).map((f) => f.message)).toEqual([
      ...STEPS.map((step) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: id, ...step },
      })),
      { jsonrpc: '2.0', id, result: done },
    ]);
    if (kind === '@modelcontextprotocol/sdk 1.x, HTTP+SSE') {
      // SDK 1.x hands notifications to handlers a microtask late but settles responses at once;
      // its SSE transport dispatches a whole network chunk synchronously, so a last step that
      // shares a chunk with the result finds its progress handler already gone.
      expect(progress).toEqual(STEPS.slice(0, progress.length));
      expect(progress.length).toBeGreaterThanOrEqual(2);
    } else {
      expect(progress).toEqual(STEPS);
    }

    expect(await client.setLoggingLevel('info')).toEqual({});
    expect(await client.callTool('test_tool_with_logging', {})).toEqual({
      content: [{ type: 'text', text: 'Tool with logging executed successfully' }],
    });
    expect(logMessages(frames)).toEqual([
      { level: 'info', data: 'Tool execution started' },
      { level: 'info', data: 'Tool processing data' },
      { level: 'info', data: 'Tool execution completed' },
    ]);
    // Above the threshold now: the same call logs nothing.
    await client.setLoggingLevel('warning');
    await client.callTool('test_tool_with_logging', {});
    expect(logMessages(frames)).toHaveLength(3);

    expect(await client.readResource('test://static-text')).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
    expect(await client.readResource('test://template/123/data')).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });

    expect(
      await client.getPrompt('test_prompt_with_arguments', { arg1: 'first', arg2: 'second' }),
    ).toEqual({
      description: 'A prompt with two required arguments',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: "Prompt with arguments: arg1='first', arg2='second'" },
        },
      ],
    });

    if (revision >= '2025-06-18') {
      expect(await client.callTool('test_elicitation', { message: 'Who are you?' })).toEqual({
        content: [
          {
            type: 'text',
            text: `User response: action=accept, content=${JSON.stringify(CONTACT)}`,
          },
        ],
      });
      expect(elicited).toEqual([
        {
          message: 'Who are you?',
          requestedSchema: {
            type: 'object',
            properties: { username: { type: 'string' }, email: { type: 'string' } },
            required: ['username', 'email'],
          },
        },
      ]);
    }

    const schema = mcpSchema(revision);
    const problems = frames.flatMap((f) =>
      schema
        .check(f.message, f.requestMethod)
        .map((p) => `${p}\n  in: ${JSON.stringify(f.message)}`),
    );
    expect(problems).toEqual([]);
    // Every response was matched to the request it answers, so each was checked as its result type.
    expect(frames.filter((f) => 'result' in f.message && f.requestMethod === undefined)).toEqual(
      [],
    );
  });
});
