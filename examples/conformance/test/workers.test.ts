import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';
import { connectHttpClient, type HttpClient } from './support/http-clients.ts';

// The quick check that start:workers serves the fixture in workerd (legacy sessions in Durable
// Objects); the official conformance suite against it is workers-conformance.test.ts, a separate
// CI step (vitest.separate.ts).
describe('the conformance fixture on Cloudflare Workers (workerd)', () => {
  let fixture: FixtureProcess | undefined;
  const clients: HttpClient[] = [];
  beforeAll(async () => {
    fixture = await startFixture('workers');
  }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await fixture?.stop();
  });

  it.each([
    ['@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-11-25'],
    ['@modelcontextprotocol/sdk 1.x, Streamable HTTP', '2025-03-26'],
    ['@modelcontextprotocol/sdk 1.x, HTTP+SSE', '2024-11-05'],
  ] as const)(
    'start:workers serves %s at %s: a tool call, arguments checked as on Node',
    async (kind, revision) => {
      const client = await connectHttpClient(kind, revision, fixture!);
      clients.push(client);
      expect(client.frames[0].message.result).toMatchObject({ protocolVersion: revision });
      expect(await client.callTool('test_simple_text')).toEqual({
        content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
      });
      // The same refusal, word for word, as on Node: an isError result from 2025-11-25 on, a
      // -32602 error before (SEP-1303).
      const refusal = await client
        .callTool('json_schema_2020_12_tool', { email: 'x', extra: true })
        .then(
          (result: any) => result.content[0].text,
          (error: Error) => error.message,
        );
      expect(refusal).toMatch(
        /Invalid arguments for tool json_schema_2020_12_tool: extra: is not an allowed property$/,
      );
    },
    20_000,
  );
});
