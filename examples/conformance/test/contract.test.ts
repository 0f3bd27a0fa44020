import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpFwServer } from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from '../../../packages/core/test/support/mcp-schema.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { createConformanceServer } from '../src/server.ts';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';
import { connectHttpClient, type HttpClient } from './support/http-clients.ts';

// The suite checks shapes more than values (conformance.md §7); this pins the reference
// payloads of the server contract exactly: §5.1–5.3, 5.6, 5.7 at 2025-11-25 over Streamable
// HTTP, and §5.4, 5.5 at 2026-07-28 through the in-memory test client (plus the HTTP-only
// answers over HTTP).
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const NO_ARGUMENTS = { type: 'object', properties: {} };
// conformance.md §5.7, as the suite (alpha.12) expects it.
const SCHEMA_2020_12 = JSON.parse(
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",' +
    '"$defs":{"address":{"$anchor":"addressDef","type":"object",' +
    '"properties":{"street":{"type":"string"},"city":{"type":"string"}}}},' +
    '"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},' +
    '"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},' +
    '"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],' +
    '"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},' +
    '"then":{"required":["phone"]},"else":{"required":["email"]},' +
    '"additionalProperties":false}',
);

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

let fixture: FixtureProcess;
let client: HttpClient;
const asked: { method: string; params: any }[] = [];
let elicitAnswer: unknown;

beforeAll(async () => {
  fixture = await startFixture();
  client = await connectHttpClient(
    '@modelcontextprotocol/client 2.x, Streamable HTTP',
    '2025-11-25',
    fixture,
    {
      onElicit: (params) => {
        asked.push({ method: 'elicitation/create', params });
        return elicitAnswer;
      },
      onSample: (params) => {
        asked.push({ method: 'sampling/createMessage', params });
        return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
      },
    },
  );
});
afterAll(async () => {
  await client?.close();
  await fixture?.stop();
});

/** Calls a tool and returns its result and the requests the server sent meanwhile. */
async function callAsking(name: string, args: Record<string, unknown> = {}) {
  asked.length = 0;
  const result = await client.callTool(name, args);
  return { result, asked: [...asked] };
}

describe('the conformance fixture serves the suite contract exactly (2025-11-25, Streamable HTTP)', () => {
  it('identity and capabilities (§5.1)', () => {
    expect(client.frames[0].message.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        // The task tools (src/task-tools.ts): 2025-11-25 core tasks.
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        // The skills of skills/ (SEP-2640), declared in every revision.
        extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
      },
      // 2025-11-25 carries the server's description (SEP-973's Implementation fields).
      serverInfo: {
        name: 'mcp-fw-conformance',
        version: '0.1.0',
        description: 'The fixture the official MCP conformance suite tests mcp-fw against',
      },
    });
  });

  it('lists every tool in a stable order with its input schema; the 2020-12 schema verbatim', async () => {
    const { tools } = await client.raw.listTools();
    expect(tools.map((t: any) => [t.name, t.inputSchema.required ?? []])).toEqual([
      ['test_simple_text', []],
      ['test_image_content', []],
      ['test_audio_content', []],
      ['test_embedded_resource', []],
      ['test_multiple_content_types', []],
      ['test_error_handling', []],
      ['test_tool_with_logging', []],
      ['test_tool_with_progress', []],
      ['test_sampling', ['prompt']],
      ['test_elicitation', ['message']],
      ['test_elicitation_sep1034_defaults', []],
      ['test_elicitation_sep1330_enums', []],
      ['test_reconnection', []],
      ['json_schema_2020_12_tool', []],
      ['test_x_mcp_header', ['region']],
      ['test_input_required_result_elicitation', []],
      ['test_input_required_result_sampling', []],
      ['test_input_required_result_list_roots', []],
      ['test_input_required_result_request_state', []],
      ['test_input_required_result_multiple_inputs', []],
      ['test_input_required_result_multi_round', []],
      ['test_input_required_result_tampered_state', []],
      ['test_input_required_result_capabilities', []],
      ['test_missing_capability', []],
      ['test_logging_tool', []],
      ['test_streaming_elicitation', []],
      ['greet', ['name']],
      ['slow_compute', ['seconds']],
      ['failing_job', []],
      ['protocol_error_job', []],
      ['confirm_delete', ['filename']],
      ['multi_input', []],
      ['test_tool_with_task', []],
      ['test_trigger_tool_change', []],
      ['test_trigger_prompt_change', []],
    ]);
    expect(tools.filter((t: any) => !t.description)).toEqual([]);
    expect(tools.find((t: any) => t.name === 'test_tool_with_progress').inputSchema).toEqual(
      NO_ARGUMENTS,
    );
    expect(tools.find((t: any) => t.name === 'json_schema_2020_12_tool')).toEqual({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: SCHEMA_2020_12,
    });
  });

  it('answers each content tool with the reference content (§5.2)', async () => {
    expect(await client.callTool('test_simple_text')).toEqual(
      text('This is a simple text response for testing.'),
    );
    expect(await client.callTool('test_image_content')).toEqual({
      content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
    });
    expect(await client.callTool('test_audio_content')).toEqual({
      content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
    });
    expect(await client.callTool('test_embedded_resource')).toEqual({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    });
    expect(await client.callTool('test_multiple_content_types')).toEqual({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    });
    expect(await client.callTool('test_error_handling')).toEqual({
      ...text('This tool intentionally returns an error for testing'),
      isError: true,
    });
    expect(await client.callTool('test_reconnection')).toEqual(
      text('Reconnection test completed successfully.'),
    );
  });

  it('samples the client with the prompt, maxTokens 100 (§5.3)', async () => {
    expect(await callAsking('test_sampling', { prompt: 'Capital of France?' })).toEqual({
      result: text('LLM response: Paris'),
      asked: [
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
            maxTokens: 100,
          },
        },
      ],
    });
  });

  it('elicits a username and an email, and reports a declined form', async () => {
    elicitAnswer = { action: 'decline' };
    expect(await callAsking('test_elicitation', { message: 'Who are you?' })).toEqual({
      result: text('User response: action=decline, content={}'),
      asked: [
        {
          method: 'elicitation/create',
          params: {
            message: 'Who are you?',
            requestedSchema: {
              type: 'object',
              properties: { username: { type: 'string' }, email: { type: 'string' } },
              required: ['username', 'email'],
            },
          },
        },
      ],
    });
  });

  it('elicits with a default for every primitive type (SEP-1034)', async () => {
    elicitAnswer = {
      action: 'accept',
      content: { name: 'Jane', age: 25, score: 88, status: 'inactive', verified: false },
    };
    const { result, asked } = await callAsking('test_elicitation_sep1034_defaults');
    expect(result).toEqual(
      text(
        'Elicitation completed: action=accept, content={"name":"Jane","age":25,"score":88,"status":"inactive","verified":false}',
      ),
    );
    expect(asked.map((a) => a.params.requestedSchema)).toEqual([
      {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    ]);
  });

  it('elicits with the five enum forms (SEP-1330); an answer outside them is a tool error', async () => {
    elicitAnswer = {
      action: 'accept',
      content: {
        untitledSingle: 'option1',
        titledSingle: 'value2',
        legacyEnum: 'opt3',
        untitledMulti: ['option1'],
        titledMulti: ['value1', 'value3'],
      },
    };
    const { result, asked } = await callAsking('test_elicitation_sep1330_enums');
    expect(result).toEqual(
      text(
        'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value2","legacyEnum":"opt3",' +
          '"untitledMulti":["option1"],"titledMulti":["value1","value3"]}',
      ),
    );
    const { properties } = asked[0].params.requestedSchema;
    expect(Object.keys(properties)).toEqual([
      'untitledSingle',
      'titledSingle',
      'legacyEnum',
      'untitledMulti',
      'titledMulti',
    ]);
    expect(properties.untitledSingle).toEqual({
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    });
    expect(properties.titledSingle.oneOf).toEqual([
      { const: 'value1', title: 'First Option' },
      { const: 'value2', title: 'Second Option' },
      { const: 'value3', title: 'Third Option' },
    ]);
    expect(properties.legacyEnum).toMatchObject({
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    });
    expect(properties.untitledMulti.items).toEqual({
      type: 'string',
      enum: ['option1', 'option2', 'option3'],
    });
    expect(properties.titledMulti.items.anyOf.map((o: any) => o.const)).toEqual([
      'value1',
      'value2',
      'value3',
    ]);

    elicitAnswer = { action: 'accept', content: { untitledSingle: 'option9' } };
    const invalid = (await callAsking('test_elicitation_sep1330_enums')).result as any;
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/^Invalid elicitation answer: untitledSingle: /);
  });

  it('lists, reads and subscribes to the resources (§5.6)', async () => {
    const listed = (
      uri: string,
      name: string,
      title: string,
      description: string,
      mimeType: string,
    ) => ({ uri, name, title, description, mimeType });
    const { resources } = await client.raw.listResources();
    // The files of skills/ follow the fixture's own resources (the Skills extension's manifest
    // scenario reads each SKILL.md's entry): skills.test.ts checks their metadata.
    expect(resources.slice(3).map((r: { uri: string }) => r.uri)).toEqual([
      'skill://acme/git-workflow/SKILL.md',
      'skill://acme/git-workflow/references/COMMITS.md',
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/references/FORMS.md',
      'skill://pdf-processing/scripts/extract.py',
      'skill://pdf-processing/templates/invoice.md',
      'skill://pdf-processing/templates/regional/eu-invoice.md',
    ]);
    expect({ resources: resources.slice(0, 3) }).toEqual({
      resources: [
        listed(
          'test://static-text',
          'static-text',
          'Static Text Resource',
          'A static text resource',
          'text/plain',
        ),
        listed(
          'test://static-binary',
          'static-binary',
          'Static Binary Resource',
          'A static PNG image',
          'image/png',
        ),
        listed(
          'test://watched-resource',
          'watched-resource',
          'Watched Resource',
          'A resource to subscribe to',
          'text/plain',
        ),
      ],
    });
    expect(await client.raw.listResourceTemplates()).toEqual({
      resourceTemplates: [
        {
          uriTemplate: 'test://template/{id}/data',
          name: 'template',
          title: 'Resource Template',
          description: 'JSON data for any id',
          mimeType: 'application/json',
        },
      ],
    });
    expect(await client.readResource('test://static-binary')).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
    });
    expect(await client.readResource('test://watched-resource')).toEqual({
      contents: [
        {
          uri: 'test://watched-resource',
          mimeType: 'text/plain',
          text: 'Watched resource content',
        },
      ],
    });
    expect(await client.raw.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    expect(await client.raw.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    const missing = 'test://nonexistent-resource-for-conformance-testing';
    await expect(client.readResource(missing)).rejects.toThrow();
    // Read off the wire: client 2.x reports a legacy -32002 under the 2026 code, -32602.
    expect(client.frames.at(-1)!.message.error).toEqual({
      code: -32002,
      message: `Resource not found: ${missing}`,
      data: { uri: missing },
    });
  });

  it('lists and renders the prompts, and completes arg1', async () => {
    expect(await client.raw.listPrompts()).toEqual({
      prompts: [
        { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
        {
          name: 'test_prompt_with_arguments',
          description: 'A prompt with two required arguments',
          arguments: [
            { name: 'arg1', description: 'First test argument', required: true },
            { name: 'arg2', description: 'Second test argument', required: true },
          ],
        },
        {
          name: 'test_prompt_with_embedded_resource',
          description: 'A prompt that embeds a resource',
          arguments: [
            { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
          ],
        },
        { name: 'test_prompt_with_image', description: 'A prompt that includes an image' },
        {
          name: 'test_input_required_result_prompt',
          description: 'Asks the user which context to use, then renders',
        },
      ],
    });
    expect(await client.getPrompt('test_simple_prompt')).toEqual({
      description: 'A simple prompt without arguments',
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    });
    expect(
      await client.getPrompt('test_prompt_with_embedded_resource', {
        resourceUri: 'test://example-resource',
      }),
    ).toEqual({
      description: 'A prompt that embeds a resource',
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
    expect(await client.getPrompt('test_prompt_with_image')).toEqual({
      description: 'A prompt that includes an image',
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
    const complete = (value: string) =>
      client.raw.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value },
      });
    expect((await complete('par')).completion.values).toEqual(['paris', 'park', 'party']);
    expect((await complete('pari')).completion.values).toEqual(['paris']);
    expect(await client.raw.ping()).toEqual({});
  });

  it('wrote only schema-valid frames', () => {
    const schema = mcpSchema('2025-11-25');
    expect(client.frames.flatMap((f) => schema.check(f.message, f.requestMethod))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2026-07-28 (conformance.md §5.4, §5.5): input rounds, diagnostic tools, list triggers.

const MODERN = '2026-07-28';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = {
  'io.modelcontextprotocol/serverInfo': { name: 'mcp-fw-conformance', version: '0.1.0' },
};
/** The suite's default client capabilities at the 2026 wire (conformance.md §3). */
const ALL = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

const complete = (value: string) => ({
  resultType: 'complete',
  content: [{ type: 'text', text: value }],
  _meta: SERVER_INFO,
});
const inputRequired = (inputRequests: Record<string, unknown>) => ({
  resultType: 'input_required',
  inputRequests,
  requestState: expect.any(String),
  _meta: SERVER_INFO,
});
const form = (message: string, property: string, type = 'string') => ({
  method: 'elicitation/create',
  params: {
    message,
    requestedSchema: { type: 'object', properties: { [property]: { type } }, required: [property] },
  },
});
const sampling = (text: string, maxTokens: number) => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const ROOTS = { method: 'roots/list', params: {} };
const accept = (content: object) => ({ action: 'accept', content });

/** What the suite's harness answers to each question (conformance.md §5.4). */
const FORM_ANSWERS: Record<string, object> = {
  'What is your name?': { name: 'Alice' },
  'Please confirm': { ok: true },
  'Step 1: What is your name?': { name: 'Alice' },
  'Step 2: What is your favorite color?': { color: 'blue' },
  'What context should the prompt use?': { context: 'test context' },
};

const modernClients: TestClient[] = [];
afterAll(() => Promise.all(modernClients.map((c) => c.close())));

/** A fresh fixture server (the triggers change its lists) and a 2026-07-28 client answering like the suite. */
async function modern(
  capabilities: Record<string, unknown> = ALL,
): Promise<{ client: TestClient; server: McpFwServer }> {
  const server = createConformanceServer();
  const client = await connectTestClient(server, {
    protocolVersion: MODERN,
    capabilities,
    clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
    handlers: {
      'elicitation/create': (params) => accept(FORM_ANSWERS[String(params.message)]),
      'sampling/createMessage': () => ({
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test-model',
        stopReason: 'endTurn',
      }),
      'roots/list': () => ({ roots: [{ uri: 'file:///test/root', name: 'Test Root' }] }),
    },
  });
  modernClients.push(client);
  return { client, server };
}

/** The envelope of a hand-built request (`rawRequest` adds none). */
const envelope = (
  capabilities: Record<string, unknown> = ALL,
  extra: Record<string, unknown> = {},
) => ({
  [V]: MODERN,
  [CAPS]: capabilities,
  [INFO]: { name: 'conformance-test-client', version: '1.0.0' },
  ...extra,
});

const framesOf = (client: TestClient, dir: 'c2s' | 's2c') =>
  client.wire.filter((w) => w.dir === dir).map((w) => JSON.parse(w.line));

/** The interim (`input_required`) results the server sent, in order. */
const interim = (client: TestClient) =>
  framesOf(client, 's2c')
    .filter((m) => m.result?.resultType === 'input_required')
    .map((m) => m.result);

/** The params of each request the client sent with `method`, in order (retries included). */
const sent = (client: TestClient, method: string) =>
  framesOf(client, 'c2s')
    .filter((m) => m.method === method)
    .map((m) => m.params);

describe('the conformance fixture serves the 2026-07-28 contract exactly (in memory)', () => {
  it('discovers, and lists every tool and prompt with cache hints; test_x_mcp_header verbatim', async () => {
    const { client } = await modern();
    expect(client.initializeResult).toEqual({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      supportedVersions: [MODERN],
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        extensions: {
          'io.modelcontextprotocol/tasks': {},
          'io.modelcontextprotocol/skills': { directoryRead: true },
        },
      },
      _meta: SERVER_INFO,
    });
    const listed = await client.listTools();
    expect({ ...listed, tools: listed.tools.length }).toEqual({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      tools: 35,
      _meta: SERVER_INFO,
    });
    expect(listed.tools.find((t: any) => t.name === 'test_x_mcp_header')).toEqual({
      name: 'test_x_mcp_header',
      description: 'Echoes a region that is also sent as the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: {
          region: {
            type: 'string',
            description: 'A region, mirrored in the Mcp-Param-Region header',
            'x-mcp-header': 'Region',
          },
          query: { type: 'string', description: 'Not mirrored in any header' },
        },
        required: ['region'],
      },
    });
    const prompts = await client.request<{ prompts: { name: string }[] }>('prompts/list');
    expect(prompts.prompts.map((p: any) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    expect(await client.callTool('test_x_mcp_header', { region: 'eu-west' })).toEqual(
      complete('Region: eu-west'),
    );
  });

  it('test_input_required_result_elicitation: user_name, then "Hello, <name>!"', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_elicitation', {})).toEqual(
      complete('Hello, Alice!'),
    );
    expect(interim(client)).toEqual([
      inputRequired({ user_name: form('What is your name?', 'name') }),
    ]);
  });

  it('test_input_required_result_sampling: capital_question, then the sampled text', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_sampling', {})).toEqual(
      complete('The model answered: Paris'),
    );
    expect(interim(client)).toEqual([
      inputRequired({ capital_question: sampling('What is the capital of France?', 100) }),
    ]);
  });

  it('test_input_required_result_list_roots: client_roots, then the roots', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_list_roots', {})).toEqual(
      complete('Client roots: file:///test/root'),
    );
    expect(interim(client)).toEqual([inputRequired({ client_roots: ROOTS })]);
  });

  it('test_input_required_result_request_state: confirm with a state, then "state-ok" once the echoed state checks out', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_request_state', {})).toEqual(
      complete('state-ok: confirmed=true'),
    );
    const [round1] = interim(client);
    expect(round1).toEqual(inputRequired({ confirm: form('Please confirm', 'ok', 'boolean') }));
    expect(sent(client, 'tools/call')[1]).toMatchObject({
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: round1.requestState,
    });
  });

  it('test_input_required_result_multiple_inputs: three questions in one round', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_multiple_inputs', {})).toEqual(
      complete('Name: Alice; greeting: Paris; roots: file:///test/root'),
    );
    expect(interim(client)).toEqual([
      inputRequired({
        user_name: form('What is your name?', 'name'),
        greeting: sampling('Generate a greeting', 50),
        client_roots: ROOTS,
      }),
    ]);
  });

  it('test_input_required_result_multi_round: step1, then step2 with a new state; the client sends only the latest answer', async () => {
    const { client } = await modern();
    expect(await client.callTool('test_input_required_result_multi_round', {})).toEqual(
      complete("Alice's favorite color is blue."),
    );
    const [round1, round2] = interim(client);
    expect([round1, round2]).toEqual([
      inputRequired({ step1: form('Step 1: What is your name?', 'name') }),
      inputRequired({ step2: form('Step 2: What is your favorite color?', 'color') }),
    ]);
    expect(round2.requestState).not.toBe(round1.requestState);
    expect(sent(client, 'tools/call').map((p) => p.inputResponses)).toEqual([
      undefined,
      { step1: accept({ name: 'Alice' }) },
      { step2: accept({ color: 'blue' }) },
    ]);
  });

  it('test_input_required_result_tampered_state: an altered state is -32602, not a result', async () => {
    const { client } = await modern();
    const call = {
      name: 'test_input_required_result_tampered_state',
      arguments: {},
      _meta: envelope(),
    };
    const round1 = await client.rawRequest('tools/call', call);
    expect(round1).toEqual(inputRequired({ confirm: form('Please confirm', 'ok', 'boolean') }));
    const retry = {
      ...call,
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: `${round1.requestState}-TAMPERED`,
    };
    await expect(client.rawRequest('tools/call', retry)).rejects.toThrow();
    expect(framesOf(client, 's2c').at(-1).error).toEqual({
      code: -32602,
      message: 'Invalid params: requestState was not issued by this server or was altered',
    });
  });

  it('test_input_required_result_capabilities: asks only what the declared capabilities allow', async () => {
    const samplingOnly = await modern({ sampling: {} });
    expect(
      await samplingOnly.client.callTool('test_input_required_result_capabilities', {}),
    ).toEqual(complete('Hello, Paris'));
    expect(interim(samplingOnly.client)).toEqual([
      inputRequired({ greeting: sampling('Generate a greeting', 50) }),
    ]);
    const everything = await modern();
    expect(await everything.client.callTool('test_input_required_result_capabilities', {})).toEqual(
      complete('Hello, Alice!'),
    );
    expect(interim(everything.client)).toEqual([
      inputRequired({ user_name: form('What is your name?', 'name') }),
    ]);
    const nothing = await modern({});
    expect(await nothing.client.callTool('test_input_required_result_capabilities', {})).toEqual(
      complete('The client can answer no questions (neither elicitation nor sampling declared).'),
    );
  });

  it('prompt test_input_required_result_prompt: user_context, then a complete GetPromptResult', async () => {
    const { client } = await modern();
    expect(await client.getPrompt('test_input_required_result_prompt')).toEqual({
      resultType: 'complete',
      description: 'Asks the user which context to use, then renders',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: 'Answer using this context: test context' },
        },
      ],
      _meta: SERVER_INFO,
    });
    expect(interim(client)).toEqual([
      inputRequired({ user_context: form('What context should the prompt use?', 'context') }),
    ]);
  });

  it('answers without a state: wrong or invalid ones are asked again, extra keys ignored; lists never ask', async () => {
    const { client } = await modern();
    const name = 'test_input_required_result_elicitation';
    const call = (inputResponses: unknown) =>
      client.rawRequest('tools/call', { name, arguments: {}, _meta: envelope(), inputResponses });
    const again = inputRequired({ user_name: form('What is your name?', 'name') });
    expect(await call({ wrong_key: accept({ data: 'wrong' }) })).toEqual(again);
    expect(await call({ user_name: 12345 })).toEqual(again);
    expect(await call(null)).toEqual(again);
    const extra = {
      unknown_extra_key: accept({ foo: 'bar' }),
      another_unexpected: accept({ baz: 123 }),
    };
    expect(await call({ user_name: accept({ name: 'Alice' }), ...extra })).toEqual(
      complete('Hello, Alice!'),
    );
    expect((await client.rawRequest('tools/list', { _meta: envelope() })).resultType).toBe(
      'complete',
    );
    expect((await client.rawRequest('prompts/list', { _meta: envelope() })).resultType).toBe(
      'complete',
    );
  });

  it('test_missing_capability: -32021 naming sampling when it is not declared, before anything runs', async () => {
    const without = await modern({});
    await expect(without.client.callTool('test_missing_capability', {})).rejects.toThrow();
    expect(framesOf(without.client, 's2c').at(-1)).toEqual({
      jsonrpc: '2.0',
      id: framesOf(without.client, 'c2s').at(-1).id,
      error: {
        code: -32021,
        message:
          'ctx.sample needs the client capability "sampling", which this client (conformance-test-client) did not declare',
        data: { requiredCapabilities: { sampling: {} } },
      },
    });
    const withSampling = await modern({ sampling: {} });
    expect(await withSampling.client.callTool('test_missing_capability', {})).toEqual(
      complete('The model said: Paris'),
    );
    expect(interim(withSampling.client)).toEqual([
      inputRequired({ hello: sampling('Say hello', 1000) }),
    ]);
  });

  it('test_logging_tool: no log message without a logLevel, one with it', async () => {
    const { client } = await modern({});
    expect(await client.callTool('test_logging_tool', {})).toEqual(
      complete('Logged one info message.'),
    );
    expect(client.notifications).toEqual([]);
    const logged = await client.request('tools/call', {
      name: 'test_logging_tool',
      arguments: {},
      _meta: { [LOG_LEVEL]: 'info' },
    });
    expect(logged).toEqual(complete('Logged one info message.'));
    expect(client.notifications).toEqual([
      {
        method: 'notifications/message',
        params: { level: 'info', data: 'test_logging_tool was called' },
      },
    ]);
  });

  it('test_streaming_elicitation: the question is an input_required result; the server sends no request', async () => {
    const { client } = await modern({ elicitation: {} });
    const _meta = envelope({ elicitation: {} });
    const round1 = await client.rawRequest('tools/call', {
      name: 'test_streaming_elicitation',
      arguments: {},
      _meta,
    });
    expect(round1).toEqual(inputRequired({ user_name: form('What is your name?', 'name') }));
    expect(await client.callTool('test_streaming_elicitation', {})).toEqual(
      complete('Hello, Alice!'),
    );
    expect(framesOf(client, 's2c').filter((m) => 'method' in m && 'id' in m)).toEqual([]);
  });

  it('test_trigger_tool_change / test_trigger_prompt_change: each listen stream hears only its own list', async () => {
    const { client, server } = await modern({});
    const listen = (notifications: Record<string, boolean>) => {
      const stream = client.rawRequest('subscriptions/listen', {
        _meta: envelope({}),
        notifications,
      });
      stream.catch(() => {});
      return stream;
    };
    const toolsStream = listen({ toolsListChanged: true });
    const promptsStream = listen({ promptsListChanged: true });
    const [toolsId, promptsId] = framesOf(client, 'c2s')
      .filter((m) => m.method === 'subscriptions/listen')
      .map((m) => m.id);
    expect(await client.callTool('test_trigger_tool_change', {})).toEqual(
      complete('Added test_dynamic_tool.'),
    );
    expect((await client.listTools()).tools.at(-1)?.name).toBe('test_dynamic_tool');
    expect(await client.callTool('test_trigger_prompt_change', {})).toEqual(
      complete('Added test_dynamic_prompt.'),
    );
    expect(await client.callTool('test_trigger_tool_change', {})).toEqual(
      complete('Removed test_dynamic_tool.'),
    );
    expect(await client.callTool('test_trigger_prompt_change', {})).toEqual(
      complete('Removed test_dynamic_prompt.'),
    );
    expect((await client.listTools()).tools.map((t: any) => t.name)).not.toContain(
      'test_dynamic_tool',
    );
    const tag = (id: unknown) => ({ _meta: { [SUBSCRIPTION]: id } });
    expect(client.notifications).toEqual([
      {
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true }, ...tag(toolsId) },
      },
      {
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { promptsListChanged: true }, ...tag(promptsId) },
      },
      { method: 'notifications/tools/list_changed', params: tag(toolsId) },
      { method: 'notifications/prompts/list_changed', params: tag(promptsId) },
      { method: 'notifications/tools/list_changed', params: tag(toolsId) },
      { method: 'notifications/prompts/list_changed', params: tag(promptsId) },
    ]);
    server.endSubscriptions();
    expect(await Promise.all([toolsStream, promptsStream])).toEqual([
      { resultType: 'complete', _meta: { ...tag(toolsId)._meta, ...SERVER_INFO } },
      { resultType: 'complete', _meta: { ...tag(promptsId)._meta, ...SERVER_INFO } },
    ]);
  });

  it('wrote only schema-valid frames (2026-07-28)', () => {
    expect(modernClients.length).toBeGreaterThan(10);
    expect(modernClients.flatMap((c) => checkServerLines(c.wire, MODERN))).toEqual([]);
  });
});

describe('the conformance fixture over 2026-07-28 HTTP', () => {
  const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const params = body.params as Record<string, unknown>;
    const res = await fetch(fixture.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': body.method as string,
        'mcp-name': params.name as string,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...body }),
    });
    const answer: any = await res.json();
    expect(mcpSchema(MODERN).check(answer, body.method as string)).toEqual([]);
    return { status: res.status, answer };
  };

  it('refuses test_missing_capability without sampling with -32021 and HTTP 400', async () => {
    const call = {
      id: 401,
      method: 'tools/call',
      params: { name: 'test_missing_capability', arguments: {}, _meta: envelope({}) },
    };
    expect(await post(call)).toEqual({
      status: 400,
      answer: {
        jsonrpc: '2.0',
        id: 401,
        error: {
          code: -32021,
          message:
            'ctx.sample needs the client capability "sampling", which this client (conformance-test-client) did not declare',
          data: { requiredCapabilities: { sampling: {} } },
        },
      },
    });
  });

  it('checks Mcp-Param-Region against test_x_mcp_header: Base64 when wrapped, literal otherwise', async () => {
    const call = (region: string) => ({
      id: 7,
      method: 'tools/call',
      params: { name: 'test_x_mcp_header', arguments: { region }, _meta: envelope() },
    });
    const encoded = `=?base64?${Buffer.from('süd').toString('base64')}?=`;
    expect(await post(call('süd'), { 'mcp-param-region': encoded })).toEqual({
      status: 200,
      answer: { jsonrpc: '2.0', id: 7, result: complete('Region: süd') },
    });
    const literal = `=?base64?${Buffer.from('Hello').toString('base64')}`;
    expect((await post(call(literal), { 'mcp-param-region': literal })).answer.result).toEqual(
      complete(`Region: ${literal}`),
    );
    // Omitted, badly padded Base64, and a different value: all -32020.
    const refused: Record<string, string>[] = [
      {},
      { 'mcp-param-region': '=?base64?SGVsbG8?=' },
      { 'mcp-param-region': 'eu' },
    ];
    for (const headers of refused) {
      const { status, answer } = await post(call('Hello'), headers);
      expect([status, answer.id, answer.error.code]).toEqual([400, 7, -32020]);
    }
  });
});
