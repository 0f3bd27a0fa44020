import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { MemoryOAuthClient } from '../../../packages/auth/test/support/oauth-client.ts';
import { Browser } from '../../../packages/auth/test/support/own-authorization-server.ts';
import { MAIN, startSecureNotesHttp } from './start-http.ts';

// `--auth-server`: the example runs our own authorization server on its origin, and people sign
// in at a development upstream IdP (oidc-provider without registration, with its login page).

const REDIRECT = 'http://127.0.0.1:9/callback';

let child: ChildProcess;
let url: string;
let stderr = '';

beforeAll(async () => {
  ({ child, url, stderr } = await startSecureNotesHttp('--auth-server'));
});
afterAll(() => {
  child?.kill('SIGTERM');
});

describe('examples/secure-notes --http --auth-server', () => {
  it('its protected-resource metadata names its own authorization server, on the same origin', async () => {
    const origin = new URL(url).origin;
    const metadata = (await (
      await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as Record<string, unknown>;
    expect(metadata.authorization_servers).toEqual([origin]);
    const as = (await (
      await fetch(`${origin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: origin,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      scopes_supported: ['notes:read', 'notes:write'],
    });
    expect(stderr).toContain(`authorization server: ${origin}`);
  });

  it('end to end with client 2.x: registration, upstream login page, consent, notes:read, then step-up to notes:write', async () => {
    const oauth = new MemoryOAuthClient(undefined, REDIRECT);
    const browser = new Browser();
    browser.login = 'carol';
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
    expect(await connect().catch((e) => e)).toBeInstanceOf(UnauthorizedError);
    expect(oauth.lastAuthorizationUrl?.searchParams.get('scope')).toBe('notes:read');
    await new StreamableHTTPClientTransport(new URL(url), {
      authProvider: oauth as any,
    }).finishAuth((await browser.go(oauth.lastAuthorizationUrl!, REDIRECT)) as any);
    const { client, transport } = await connect();
    try {
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).content).toEqual([
        { type: 'text', text: 'No notes yet.' },
      ]);
      const denied = await client
        .callTool({ name: 'add_note', arguments: { text: 'buy milk' } })
        .catch((e) => e);
      expect(denied).toBeInstanceOf(UnauthorizedError);
      // The wider scope is asked for, and consented to, anew.
      await transport.finishAuth((await browser.go(oauth.lastAuthorizationUrl!, REDIRECT)) as any);
      expect(browser.consentPage?.html).toContain('notes:write');
      expect(
        (await client.callTool({ name: 'add_note', arguments: { text: 'buy milk' } })).content,
      ).toEqual([{ type: 'text', text: 'Added note #1' }]);
    } finally {
      await client.close();
    }
  });

  it('refuses --auth-server together with --issuer, naming both', async () => {
    const other = spawn(
      process.execPath,
      [MAIN, '--http', '--auth-server', '--issuer', 'https://a.example'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let text = '';
    other.stderr!.on('data', (c) => (text += c));
    const code = await new Promise((resolve) => other.once('exit', resolve));
    expect(code).toBe(2);
    expect(text).toContain('choose one of --auth-server, --dev-auth and --issuer');
  });
});
