import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as Unauthorized1 } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError as Unauthorized2,
} from '@modelcontextprotocol/client';
import { connect, oauth } from '@mcp-fw/client';
import { MemoryOAuthClient } from './support/oauth-client.ts';
import {
  Browser,
  httpsHost,
  ownAuthorizationServer,
  selfSigned,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// The whole flow through our authorization server and the upstream IdP, by the official clients
// (client 2.x with a Client ID Metadata Document, SDK 1.x with dynamic registration) and by our
// own @mcp-fw/client, at both eras where the client speaks both.

const REDIRECT = 'http://127.0.0.1:9/callback';

let env: OwnAuthorizationServer;
let documents: Awaited<ReturnType<typeof httpsHost>>;
const cimdUrl = (name: string) => `${documents.origin}/clients/${name}.json`;

beforeAll(async () => {
  const tls = selfSigned();
  documents = await httpsHost(tls, (path, res) => {
    const name = /^\/clients\/([a-z0-9-]+)\.json$/.exec(path)?.[1];
    if (!name) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: `${documents.origin}${path}`,
        client_name: `CIMD ${name}`,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  env = await ownAuthorizationServer({
    clientMetadataDocuments: { allowPrivateAddresses: true, ca: tls.cert },
  });
});
afterAll(async () => {
  await env?.close();
  await documents?.close();
});

class MetadataDocumentClient extends MemoryOAuthClient {
  constructor(readonly clientMetadataUrl: string) {
    super(undefined, REDIRECT);
  }
}

function claimsOf(result: unknown): Record<string, unknown> {
  const text = (result as { content: { text: string }[] }).content[0].text;
  return JSON.parse(text) as Record<string, unknown>;
}

describe('official clients through our authorization server and the upstream IdP', () => {
  it.each([
    ['2026-07-28', { versionNegotiation: { mode: 'auto' as const } }],
    ['2025-11-25', { supportedProtocolVersions: ['2025-11-25'] }],
  ])(
    'client 2.x with a Client ID Metadata Document signs in and calls a tool (%s)',
    async (era, options) => {
      const provider = new MetadataDocumentClient(cimdUrl(`v2-${era}`));
      const connectOnce = async () => {
        const transport = new Transport2(new URL(env.resource), { authProvider: provider as any });
        const client = new Client2({ name: 'v2', version: '1.0.0' }, options as any);
        await client.connect(transport);
        return client;
      };
      expect(await connectOnce().catch((e) => e)).toBeInstanceOf(Unauthorized2);
      const url = provider.lastAuthorizationUrl!;
      expect(url.searchParams.get('client_id')).toBe(cimdUrl(`v2-${era}`));
      const browser = new Browser();
      const params = await browser.go(url, REDIRECT);
      expect(browser.consentPage?.html).toContain(`CIMD v2-${era}`);
      expect(browser.consentPage?.html).toContain(
        `Verified domain: <strong>${new URL(documents.origin).host}</strong>`,
      );
      await new Transport2(new URL(env.resource), { authProvider: provider as any }).finishAuth(
        params as any,
      );
      const client = await connectOnce();
      try {
        const me = claimsOf(await client.callTool({ name: 'whoami', arguments: {} }));
        expect(me).toMatchObject({ subject: 'alice', clientId: cimdUrl(`v2-${era}`) });
      } finally {
        await client.close();
      }
    },
  );

  it('SDK 1.x with dynamic registration signs in and calls a tool (2025-11-25)', async () => {
    const provider = new MemoryOAuthClient(undefined, REDIRECT);
    const connectOnce = async () => {
      const client = new Client1({ name: 'v1', version: '1.0.0' });
      await client.connect(new Transport1(new URL(env.resource), { authProvider: provider }));
      return client;
    };
    expect(await connectOnce().catch((e) => e)).toBeInstanceOf(Unauthorized1);
    const clientId = provider.clientInformation()?.client_id;
    expect(clientId).toMatch(/^dyn_/);
    const params = await new Browser().go(provider.lastAuthorizationUrl!, REDIRECT);
    await new Transport1(new URL(env.resource), { authProvider: provider }).finishAuth(
      params.get('code')!,
    );
    const client = await connectOnce();
    try {
      expect(claimsOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({
        subject: 'alice',
        clientId,
      });
    } finally {
      await client.close();
    }
  });

  it.each(['2026-07-28', '2025-11-25'])(
    'our @mcp-fw/client with a Client ID Metadata Document signs in and calls a tool (%s)',
    async (protocolVersion) => {
      const redirects: URL[] = [];
      const client = await connect(env.resource, {
        protocolVersion,
        auth: oauth({
          clientMetadataUrl: cimdUrl(`ours-${protocolVersion}`),
          redirectUrl: REDIRECT,
          onAuthorizationUrl: async (url: URL) => {
            redirects.push(url);
            return `${REDIRECT}?${await new Browser().go(url, REDIRECT)}`;
          },
        }),
      });
      try {
        const me = claimsOf(await client.callTool('whoami', {}));
        expect(me).toMatchObject({
          subject: 'alice',
          clientId: cimdUrl(`ours-${protocolVersion}`),
        });
        expect(redirects).toHaveLength(1);
        expect(redirects[0].searchParams.get('resource')).toBe(env.resource);
      } finally {
        await client.close();
      }
    },
  );
});
