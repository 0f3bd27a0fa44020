import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, Tool } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { MCP_SCHEMA_DIR } from './support/paths.ts';
import { checkServerLines } from './support/wire-log.ts';

const EXAMPLES = join(MCP_SCHEMA_DIR, '2026-07-28/examples');
// Requests a client sends to a server (the others in the folder go the other way).
const CLIENT_REQUESTS = readdirSync(EXAMPLES).filter(
  (d) =>
    d.endsWith('Request') &&
    !['ElicitRequest', 'CreateMessageRequest', 'ListRootsRequest'].includes(d),
);

/** The members the official examples talk about, so their requests reach real handlers. */
class ExampleWorld {
  @Tool({ description: 'Weather for a location', input: z.object({ location: z.string() }) })
  get_weather({ location }: { location: string }) {
    return `Sunny in ${location}`;
  }

  @Resource('file:///{+path}', { mimeType: 'text/plain' })
  file({ path }: { path: string }) {
    return `contents of ${path}`;
  }

  @Prompt({
    description: 'Reviews code',
    input: z.object({ code: z.string(), language: z.string().optional() }),
    complete: { language: ['python', 'pytorch', 'rust'] },
  })
  code_review({ code }: { code: string }) {
    return `Review:\n${code}`;
  }
}

describe('the official 2026-07-28 example requests, sent as they are', () => {
  it.each(CLIENT_REQUESTS)('%s gets a schema-valid answer', async (type) => {
    const client = await connectTestClient(
      createServer({ name: 'examples', version: '1.0.0', providers: [ExampleWorld] }),
      {
        protocolVersion: '2026-07-28',
      },
    );
    for (const file of readdirSync(join(EXAMPLES, type))) {
      const example = JSON.parse(readFileSync(join(EXAMPLES, type, file), 'utf8')) as {
        method: string;
        params?: Record<string, unknown>;
      };
      const answer = client.rawRequest(example.method, example.params);
      if (example.method === 'subscriptions/listen') {
        answer.catch(() => {});
        await client.rawRequest('server/discover', example.params);
        continue;
      }
      await expect(answer).resolves.toMatchObject({ resultType: 'complete' });
    }
    expect(checkServerLines(client.wire, '2026-07-28')).toEqual([]);
  });
});
