import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommand, startFixture, type FixtureProcess } from './support/fixture-process.ts';
import { connectHttpClient, type HttpClient } from './support/http-clients.ts';

// The quick check that the fixture serves on Bun and Deno (HTTP and stdio), started by
// package.json's start:bun and start:deno commands (the binaries are root devDependencies). The
// official conformance suite against each runtime is runtimes-conformance.test.ts, a separate CI step (vitest.separate.ts).
describe.each(['bun', 'deno'] as const)('the conformance fixture on %s', (runtime) => {
  let fixture: FixtureProcess | undefined;
  let client: HttpClient;
  beforeAll(async () => {
    fixture = await startFixture(runtime);
    client = await connectHttpClient(
      '@modelcontextprotocol/client 2.x, Streamable HTTP',
      '2025-11-25',
      fixture,
    );
  }, 15_000);
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });

  it(`start:${runtime} serves an official client: initialize at 2025-11-25 and a tool call`, async () => {
    expect(client.frames[0].message.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'mcp-fw-conformance', version: '0.1.0' },
    });
    expect(await client.callTool('test_simple_text')).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
  });

  it(`start:${runtime} validates tool arguments as Node does (JSON Schema 2020-12 conditionals)`, async () => {
    const call = (args: Record<string, unknown>) =>
      client.callTool('json_schema_2020_12_tool', args);
    expect(await call({ name: 'a', contactMethod: 'phone', phone: '1' })).toEqual({
      content: [
        {
          type: 'text',
          text: 'JSON Schema 2020-12 tool called with: {"name":"a","contactMethod":"phone","phone":"1"}',
        },
      ],
    });
    // The same refusals, word for word, as on Node (official-clients-http.test.ts's runtime).
    expect(await call({ contactMethod: 'phone', email: 'x' })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool json_schema_2020_12_tool: phone: is required',
        },
      ],
      isError: true,
    });
    expect(await call({ email: 'x', extra: true })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool json_schema_2020_12_tool: extra: is not an allowed property',
        },
      ],
      isError: true,
    });
  });

  it(`${runtime} serves an official client over stdio: initialize and a tool call`, async () => {
    const [command, args] = startCommand(runtime);
    const stdio = new Client({ name: 'runtimes-test', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command,
        args,
        cwd: fileURLToPath(new URL('../', import.meta.url)),
        stderr: 'ignore',
      }),
    );
    try {
      expect(stdio.getServerVersion()).toMatchObject({ name: 'mcp-fw-conformance' });
      expect(await stdio.callTool({ name: 'test_simple_text', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
      });
    } finally {
      await stdio.close();
    }
  });
});
