import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { browse } from '../../../packages/auth/test/support/authorization-server.ts';
import { MemoryOAuthClient } from '../../../packages/auth/test/support/oauth-client.ts';
import { startSecureNotesHttp } from './start-http.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';

let child: ChildProcess;
let url: string;
let issuer: string;

beforeAll(async () => {
  const started = await startSecureNotesHttp('--dev-auth');
  ({ child, url } = started);
  issuer = /authorization server[^:]*: (\S+)/.exec(started.stderr)![1];
});
afterAll(() => {
  child?.kill('SIGTERM');
});

describe('examples/secure-notes --http --dev-auth', () => {
  it('serves its metadata naming the local authorization server and the notes scopes', async () => {
    const metadata = await (
      await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(metadata).toEqual({
      resource: url,
      authorization_servers: [issuer],
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Secure notes',
    });
  });

  it('end to end with client 2.x: dynamic registration, sign-in, notes:read first, step-up to notes:write', async () => {
    const oauth = new MemoryOAuthClient(undefined, REDIRECT);
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        authProvider: oauth as any,
      });
      const client = new Client(
        { name: 'notes-e2e', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(transport);
      return { client, transport };
    };
    const refused = await connect().catch((e) => e);
    expect(refused, String(refused) + JSON.stringify(refused)).toBeInstanceOf(UnauthorizedError);
    expect(oauth.clientInformation()?.client_id).toBeTruthy();
    await new StreamableHTTPClientTransport(new URL(url), {
      authProvider: oauth as any,
    }).finishAuth(await browse(oauth.lastAuthorizationUrl!, REDIRECT));
    const { client, transport } = await connect();
    try {
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).content).toEqual([
        { type: 'text', text: 'No notes yet.' },
      ]);
      const denied = await client
        .callTool({ name: 'add_note', arguments: { text: 'buy milk' } })
        .catch((e) => e);
      expect(denied).toBeInstanceOf(UnauthorizedError);
      await transport.finishAuth(await browse(oauth.lastAuthorizationUrl!, REDIRECT));
      expect(
        (await client.callTool({ name: 'add_note', arguments: { text: 'buy milk' } })).content,
      ).toEqual([{ type: 'text', text: 'Added note #1' }]);
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).content).toEqual([
        { type: 'text', text: '#1 buy milk' },
      ]);
    } finally {
      await client.close();
    }
  });
});
