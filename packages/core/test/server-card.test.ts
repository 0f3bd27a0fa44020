import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServer,
  Prompt,
  Resource,
  StartupError,
  SURFACE_FINGERPRINT_KEY,
  surfaceFingerprint,
  Tool,
  type ServerOptions,
} from '@mcp-fw/core';
import { createHttpHandler } from '@mcp-fw/core/http';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { connectTestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from './support/mcp-schema.ts';
import { REPO_ROOT, SERVER_CARD_SCHEMA } from './support/paths.ts';

const ICON = { src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] };
const METADATA: ServerOptions = {
  name: 'weather',
  version: '1.4.0',
  title: 'Weather',
  description: 'Forecasts and alerts for any city',
  registryName: 'io.github.acme/weather',
  icons: [ICON],
  websiteUrl: 'https://acme.example/weather',
  repository: { url: 'https://github.com/acme/weather', source: 'github' },
};

// The vendored schema, byte for byte as SOURCE.md records it.
const source = readFileSync(`${REPO_ROOT}/vendor/server-card/SOURCE.md`, 'utf8');
const schemaText = readFileSync(SERVER_CARD_SCHEMA);
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
ajv.addSchema(JSON.parse(schemaText.toString()), 'card');
const validCard = ajv.getSchema('card#/$defs/ServerCard')!;

let handles: HttpServerHandle[] = [];
afterEach(async () => {
  for (const handle of handles) await handle.close();
  handles = [];
});
async function serve(options: ServerOptions = METADATA, http = {}) {
  const handle = await serveHttp(createServer(options), { port: 0, ...http });
  handles.push(handle);
  return handle;
}

it('the vendored schema matches the checksum its SOURCE.md records', () => {
  const digest = createHash('sha256').update(schemaText).digest('hex');
  expect(source).toContain(`SHA-256: \`${digest}\``);
  expect(source).toContain('8924e08682b4a936e6464b57845ec2ff17dc8776');
});

describe('Server Card', () => {
  it("carries the surface fingerprint in _meta, and a new tool changes it and the card's ETag", async () => {
    class Forecasts {
      @Tool({
        description: 'The forecast for a city',
        input: { type: 'object', properties: { city: { type: 'string' } } },
      })
      forecast() {
        return 'sunny';
      }
    }
    class Alerts {
      @Tool({ description: 'Weather alerts', input: { type: 'object' } })
      alerts() {
        return 'none';
      }
    }
    const server = createServer({ ...METADATA, providers: [Forecasts] });
    const handle = await serveHttp(server, { port: 0 });
    handles.push(handle);
    const read = async () => {
      const response = await fetch(`${handle.url}/server-card`);
      const card = (await response.json()) as { _meta: Record<string, string> };
      return {
        fingerprint: card._meta[SURFACE_FINGERPRINT_KEY],
        etag: response.headers.get('etag'),
      };
    };
    const before = await read();
    expect(before.fingerprint).toBe(await surfaceFingerprint(server.registry));
    server.add(Alerts);
    const after = await read();
    expect(after.fingerprint).toBe(await surfaceFingerprint(server.registry));
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.etag).not.toBe(before.etag);
  });

  it('is served at <endpoint>/server-card as application/mcp-server-card+json, valid against the vendored schema', async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/server-card`, {
      headers: { accept: 'application/mcp-server-card+json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    const card = await response.json();
    expect(validCard(card), ajv.errorsText(validCard.errors)).toBe(true);
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'io.github.acme/weather',
      version: '1.4.0',
      description: 'Forecasts and alerts for any city',
      title: 'Weather',
      icons: [ICON],
      websiteUrl: 'https://acme.example/weather',
      repository: { url: 'https://github.com/acme/weather', source: 'github' },
      remotes: [
        {
          type: 'streamable-http',
          url,
          supportedProtocolVersions: [
            '2026-07-28',
            '2025-11-25',
            '2025-06-18',
            '2025-03-26',
            '2024-11-05',
          ],
        },
      ],
      _meta: { [SURFACE_FINGERPRINT_KEY]: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
  });

  it('carries CORS for any page and cache headers, and answers If-None-Match with 304', async () => {
    const { url } = await serve();
    const first = await fetch(`${url}/server-card`, {
      headers: { origin: 'https://other.example' },
    });
    expect(
      Object.fromEntries(
        [
          'access-control-allow-origin',
          'access-control-allow-methods',
          'access-control-expose-headers',
          'cache-control',
        ].map((h) => [h, first.headers.get(h)]),
      ),
    ).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-expose-headers': 'ETag',
      'cache-control': 'public, max-age=3600',
    });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f-]+"$/);
    const again = await fetch(`${url}/server-card`, { headers: { 'if-none-match': etag! } });
    expect([again.status, await again.text()]).toEqual([304, '']);
    const preflight = await fetch(`${url}/server-card`, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([
      204,
      'Content-Type, If-None-Match',
    ]);
    const post = await fetch(`${url}/server-card`, { method: 'POST', body: '{}' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });

  it('refuses a foreign Host (DNS rebinding) like the MCP endpoint does', async () => {
    const handle = await serve();
    // fetch() does not let a caller set Host; node:http does.
    const status = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${handle.url}/server-card`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject).end();
      });
    expect(await status('evil.example')).toBe(403);
    expect(await status(`127.0.0.1:${handle.port}`)).toBe(200);
  });

  it('takes its remote URL from serverCard.url (a URL template too)', async () => {
    const { url } = await serve(METADATA, {
      serverCard: { url: 'https://{tenant}.acme.example/mcp' },
    });
    const card = (await (await fetch(`${url}/server-card`)).json()) as any;
    expect(validCard(card), ajv.errorsText(validCard.errors)).toBe(true);
    expect(card.remotes[0].url).toBe('https://{tenant}.acme.example/mcp');
  });

  it('is not served without a registryName, and serverCard: true then fails at startup', async () => {
    const { url } = await serve({ name: 'plain', version: '1.0.0' });
    expect((await fetch(`${url}/server-card`)).status).toBe(404);
    expect(() =>
      createHttpHandler(createServer({ name: 'plain', version: '1.0.0' }), { serverCard: true }),
    ).toThrow(/serverCard: true needs the server's registryName/);
  });

  it('a registryName that is not reverse-DNS with one slash fails at startup', () => {
    expect(() => createServer({ ...METADATA, registryName: 'weather' })).toThrow(StartupError);
    expect(() => createServer({ ...METADATA, registryName: 'weather' })).toThrow(
      /registryName "weather" must be reverse-DNS with exactly one slash/,
    );
    expect(() => createServer({ ...METADATA, description: 'x'.repeat(101) })).toThrow(
      /description must be 1-100 characters/,
    );
    expect(() => createServer({ ...METADATA, icons: [{ src: 'javascript:alert(1)' }] })).toThrow(
      /icons\[0\].src "javascript:alert\(1\)" must be an https:/,
    );
  });
});

describe('catalog', () => {
  it('/.well-known/mcp/catalog.json and /.well-known/ai-catalog.json list the card, which their URL serves', async () => {
    const { url } = await serve();
    const origin = new URL(url).origin;
    for (const path of ['/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/ai-catalog+json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const catalog = (await response.json()) as any;
      expect(catalog).toEqual({
        specVersion: '1.0',
        entries: [
          {
            identifier: 'urn:air:acme.github.io:mcp:weather',
            type: 'application/mcp-server-card+json',
            url: `${url}/server-card`,
          },
        ],
      });
      const card = (await (await fetch(catalog.entries[0].url)).json()) as any;
      expect(card.name).toBe('io.github.acme/weather');
    }
  });
});

class Iconic {
  @Tool({ description: 'Echo', icons: [ICON] })
  echo() {
    return 'hi';
  }
  @Resource('test://iconic', { description: 'A resource', icons: [ICON] })
  res() {
    return 'r';
  }
  @Prompt({ description: 'A prompt', icons: [ICON] })
  greet() {
    return 'hello';
  }
}

describe.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])(
  'icons at %s',
  (protocolVersion) => {
    const hasIcons = protocolVersion >= '2025-11-25';
    it('server, tool, resource and prompt icons are schema-valid where the revision has them and omitted where not', async () => {
      const server = createServer({ ...METADATA, providers: [Iconic] });
      const client = await connectTestClient(server, { protocolVersion });
      const schema = mcpSchema(protocolVersion);
      const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });
      if (protocolVersion !== '2026-07-28') {
        const { serverInfo } = client.initializeResult as { serverInfo: Record<string, unknown> };
        expect(schema.check(response(client.initializeResult), 'initialize')).toEqual([]);
        expect(serverInfo.icons).toEqual(hasIcons ? [ICON] : undefined);
        expect(serverInfo.description).toEqual(hasIcons ? METADATA.description : undefined);
        expect(serverInfo.websiteUrl).toEqual(hasIcons ? METADATA.websiteUrl : undefined);
      }
      for (const [method, key] of [
        ['tools/list', 'tools'],
        ['resources/list', 'resources'],
        ['prompts/list', 'prompts'],
      ] as const) {
        const result = await client.request<Record<string, { icons?: unknown }[]>>(method);
        expect(schema.check(response(result), method), method).toEqual([]);
        expect(result[key]![0]!.icons, method).toEqual(hasIcons ? [ICON] : undefined);
      }
      await client.close();
    });
  },
);
