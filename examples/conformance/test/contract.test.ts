import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSchema } from '../../../packages/core/test/support/mcp-schema.ts';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';
import { connectHttpClient, type HttpClient } from './support/http-clients.ts';

// The suite checks shapes more than values (conformance.md §7); this pins the reference
// payloads of the server contract (§5.1–5.3, 5.6, 5.7) exactly, over Streamable HTTP.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
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
  client = await connectHttpClient('@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-11-25', fixture, {
    onElicit: (params) => {
      asked.push({ method: 'elicitation/create', params });
      return elicitAnswer;
    },
    onSample: (params) => {
      asked.push({ method: 'sampling/createMessage', params });
      return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
    },
  });
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
      },
      serverInfo: { name: 'mcp-fw-conformance', version: '0.1.0' },
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
    ]);
    expect(tools.filter((t: any) => !t.description)).toEqual([]);
    expect(tools.find((t: any) => t.name === 'test_tool_with_progress').inputSchema).toEqual(NO_ARGUMENTS);
    expect(tools.find((t: any) => t.name === 'json_schema_2020_12_tool')).toEqual({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: SCHEMA_2020_12,
    });
  });

  it('answers each content tool with the reference content (§5.2)', async () => {
    expect(await client.callTool('test_simple_text')).toEqual(text('This is a simple text response for testing.'));
    expect(await client.callTool('test_image_content')).toEqual({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] });
    expect(await client.callTool('test_audio_content')).toEqual({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] });
    expect(await client.callTool('test_embedded_resource')).toEqual({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
        },
      ],
    });
    expect(await client.callTool('test_multiple_content_types')).toEqual({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
        },
      ],
    });
    expect(await client.callTool('test_error_handling')).toEqual({
      ...text('This tool intentionally returns an error for testing'),
      isError: true,
    });
    expect(await client.callTool('test_reconnection')).toEqual(text('Reconnection test completed successfully.'));
  });

  it('samples the client with the prompt, maxTokens 100 (§5.3)', async () => {
    expect(await callAsking('test_sampling', { prompt: 'Capital of France?' })).toEqual({
      result: text('LLM response: Paris'),
      asked: [
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 },
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
    elicitAnswer = { action: 'accept', content: { name: 'Jane', age: 25, score: 88, status: 'inactive', verified: false } };
    const { result, asked } = await callAsking('test_elicitation_sep1034_defaults');
    expect(result).toEqual(
      text('Elicitation completed: action=accept, content={"name":"Jane","age":25,"score":88,"status":"inactive","verified":false}'),
    );
    expect(asked.map((a) => a.params.requestedSchema)).toEqual([
      {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
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
    expect(Object.keys(properties)).toEqual(['untitledSingle', 'titledSingle', 'legacyEnum', 'untitledMulti', 'titledMulti']);
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
    expect(properties.untitledMulti.items).toEqual({ type: 'string', enum: ['option1', 'option2', 'option3'] });
    expect(properties.titledMulti.items.anyOf.map((o: any) => o.const)).toEqual(['value1', 'value2', 'value3']);

    elicitAnswer = { action: 'accept', content: { untitledSingle: 'option9' } };
    const invalid = (await callAsking('test_elicitation_sep1330_enums')).result as any;
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/^Invalid elicitation answer: untitledSingle: /);
  });

  it('lists, reads and subscribes to the resources (§5.6)', async () => {
    const listed = (uri: string, name: string, title: string, description: string, mimeType: string) =>
      ({ uri, name, title, description, mimeType });
    expect(await client.raw.listResources()).toEqual({
      resources: [
        listed('test://static-text', 'static-text', 'Static Text Resource', 'A static text resource', 'text/plain'),
        listed('test://static-binary', 'static-binary', 'Static Binary Resource', 'A static PNG image', 'image/png'),
        listed('test://watched-resource', 'watched-resource', 'Watched Resource', 'A resource to subscribe to', 'text/plain'),
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
      contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
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
          arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
        },
        { name: 'test_prompt_with_image', description: 'A prompt that includes an image' },
      ],
    });
    expect(await client.getPrompt('test_simple_prompt')).toEqual({
      description: 'A simple prompt without arguments',
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
    expect(await client.getPrompt('test_prompt_with_embedded_resource', { resourceUri: 'test://example-resource' })).toEqual({
      description: 'A prompt that embeds a resource',
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
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
      client.raw.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value } });
    expect((await complete('par')).completion.values).toEqual(['paris', 'park', 'party']);
    expect((await complete('pari')).completion.values).toEqual(['paris']);
    expect(await client.raw.ping()).toEqual({});
  });

  it('wrote only schema-valid frames', () => {
    const schema = mcpSchema('2025-11-25');
    expect(client.frames.flatMap((f) => schema.check(f.message, f.requestMethod))).toEqual([]);
  });
});
