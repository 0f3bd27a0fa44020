import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';
import { connectHttpClient, type HttpClient } from './support/http-clients.ts';

function installed(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
}

const CONTACT = { username: 'ada', email: 'ada@example.com' };

// The quick check that start:serverless serves the fixture as a serverless function (three
// instances round-robin, recycled every few requests, legacy sessions in its own redis-server):
// several processes, so in test:integration (vitest.integration.ts); the official conformance
// suite against it is serverless-conformance.test.ts, a separate CI step (vitest.separate.ts).
describe.skipIf(!installed('redis-server'))(
  'the conformance fixture as a serverless function',
  () => {
    let fixture: FixtureProcess | undefined;
    const clients: HttpClient[] = [];
    beforeAll(async () => {
      fixture = await startFixture('serverless');
    }, 60_000);
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await fixture?.stop();
    });

    it.each([
      ['@modelcontextprotocol/client 2.x, Streamable HTTP', '2025-11-25'],
      ['@modelcontextprotocol/sdk 1.x, Streamable HTTP', '2025-06-18'],
    ] as const)(
      'start:serverless serves %s at %s: calls and an elicitation, each request on the next instance',
      async (kind, revision) => {
        const client = await connectHttpClient(kind, revision, fixture!, {
          onElicit: () => ({ action: 'accept', content: CONTACT }),
        });
        clients.push(client);
        expect(client.frames[0].message.result).toMatchObject({ protocolVersion: revision });
        // Round-robin over three instances: the session's requests meet all of them, and it
        // lives on through Redis.
        for (let i = 0; i < 3; i++)
          expect(await client.callTool('test_simple_text')).toEqual({
            content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
          });
        // The question goes out on the call's stream; the answer is a request of its own, taken
        // by another instance than the one waiting for it.
        expect(await client.callTool('test_elicitation', { message: 'Who are you?' })).toEqual({
          content: [
            {
              type: 'text',
              text: `User response: action=accept, content=${JSON.stringify(CONTACT)}`,
            },
          ],
        });
      },
      30_000,
    );
  },
);
