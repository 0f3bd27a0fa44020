import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { browse } from '../../auth/test/support/authorization-server.ts';
import { MemoryOAuthClient } from '../../auth/test/support/oauth-client.ts';
import { onFreePort } from '../../../test-support/ports.ts';
import { run, runCli, tempDir, type Finished } from './support/cli.ts';
import { cleanEnv, npm, projectFiles, startHttpServer } from './support/packed.ts';

// The http template with --auth oauth, end to end from this clone: the project installs with
// @mcp-fw/auth packed into vendor/, passes its own tests and build, refuses to start without its
// settings (naming the variable), and `npm run dev` serves it with the development authorization
// server: 401 and metadata as a client discovers them, `mcp-fw auth doctor` passing, and the
// official 2.x client signing in (dynamic registration, PKCE), listing the tools, stepping up
// from notes:read to notes:write. (The same from a packed scaffolder is in packed.test.ts, which
// owns the one `npm pack` of the scaffolder: two at once would race over its prepack copy.)

const work = tempDir('packed-oauth');
afterAll(() => work.remove(), 120_000);
const NPM_ENV = {
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};
const REDIRECT = 'http://127.0.0.1:9/callback';
const succeeded = (result: Finished) => ({
  status: result.status,
  output: `${result.stdout}\n${result.stderr}`,
});

it('scaffolds --auth oauth, installs, tests, builds, and serves a protected server the official client signs in to', async () => {
  const cwd = join(work.dir, 'checkout');
  mkdirSync(cwd, { recursive: true });
  const dir = join(cwd, 'oauth-server');
  const scaffolded = await runCli(
    ['oauth-server', '--template', 'http', '--auth', 'oauth', '--no-git', '--yes'],
    { cwd, env: NPM_ENV },
  );
  expect(succeeded(scaffolded)).toMatchObject({ status: 0 });
  expect(scaffolded.stdout).toContain('(template http, http, OAuth)');
  expect(scaffolded.stdout).toMatch(/Packing [^\n]*@mcp-fw\/auth[^\n]* from /);
  expect(scaffolded.stdout).toContain('  npx mcp-fw auth doctor http://127.0.0.1:3000/mcp\n');

  const files = projectFiles(dir);
  expect(Object.keys(files)).toContain('vendor/mcp-fw-auth-0.1.0.tgz');
  expect(
    Object.keys(files).filter((path) => path.startsWith('src/') || path.startsWith('test/')),
  ).toEqual([
    'src/auth.ts',
    'src/dev.ts',
    'src/main.ts',
    'src/notes.ts',
    'src/server.ts',
    'test/http-security.test.ts',
    'test/notes.test.ts',
    'test/oauth.test.ts',
  ]);
  const pkg = JSON.parse(files['package.json']);
  expect(pkg.dependencies['@mcp-fw/auth']).toBe('file:vendor/mcp-fw-auth-0.1.0.tgz');
  expect(pkg.devDependencies['oidc-provider']).toBe('9.13.3');

  const tested = await npm(['test'], dir);
  expect(succeeded(tested)).toMatchObject({ status: 0 });
  expect(tested.stdout).toMatch(/Test Files {2}3 passed/);
  const built = await npm(['run', 'build'], dir);
  expect(succeeded(built)).toMatchObject({ status: 0 });

  // Without its settings it refuses to start, naming what to set.
  const bare = await run(process.execPath, ['dist/main.js'], {
    cwd: dir,
    env: cleanEnv(),
    replaceEnv: true,
  });
  expect(bare.status).toBe(1);
  expect(bare.stderr).toMatch(
    /^MCP_RESOURCE_URL is not set: set it to the URL clients use to reach this server/,
  );
  const noIssuer = await run(process.execPath, ['dist/main.js'], {
    cwd: dir,
    env: cleanEnv({ MCP_RESOURCE_URL: 'https://notes.example.com/mcp' }),
    replaceEnv: true,
  });
  expect(noIssuer.status).toBe(1);
  expect(noIssuer.stderr).toMatch(
    /^OAUTH_ISSUER is not set: set it to your authorization server's issuer URL/,
  );

  // The resource URL names the port: a port taken meanwhile is tried again on a fresh one.
  const { port, started } = await onFreePort(async (port) => ({
    port,
    started: await startHttpServer(dir, 'npm', ['run', 'dev', '--silent'], {
      PORT: String(port),
    }),
  }));
  try {
    const url = started.url.href;
    expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
    const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    const refused = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'e2e', version: '1.0.0' },
        },
      }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`,
    );
    const metadata = (await (await fetch(metadataUrl)).json()) as {
      authorization_servers: string[];
    };
    expect(metadata).toMatchObject({
      resource: url,
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
    });
    expect(metadata.authorization_servers).toHaveLength(1);
    expect(metadata.authorization_servers[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const doctor = await npm(['exec', '--', 'mcp-fw', 'auth', 'doctor', url], dir);
    expect(succeeded(doctor)).toMatchObject({ status: 0 });
    expect(doctor.stdout).toContain('All checks passed.');

    const oauth = new MemoryOAuthClient(undefined, REDIRECT);
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        authProvider: oauth as any,
      });
      const client = new Client(
        { name: 'create-mcp-server-oauth-e2e', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(transport);
      return { client, transport };
    };
    expect(await connect().catch((e) => e)).toBeInstanceOf(UnauthorizedError);
    await new StreamableHTTPClientTransport(new URL(url), {
      authProvider: oauth as any,
    }).finishAuth(await browse(oauth.lastAuthorizationUrl!, REDIRECT));
    const { client, transport } = await connect();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'add_note',
        'list_notes',
      ]);
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).content).toEqual([
        { type: 'text', text: 'No notes yet.' },
      ]);
      // The first token has notes:read only: add_note's 403 sends the client back for notes:write.
      expect(
        await client
          .callTool({ name: 'add_note', arguments: { text: 'Buy milk' } })
          .catch((e) => e),
      ).toBeInstanceOf(UnauthorizedError);
      await transport.finishAuth(await browse(oauth.lastAuthorizationUrl!, REDIRECT));
      expect(
        (await client.callTool({ name: 'add_note', arguments: { text: 'Buy milk' } })).content,
      ).toEqual([{ type: 'text', text: 'Saved note 1.' }]);
    } finally {
      await client.close();
    }
  } finally {
    started.stop();
  }
}, 300_000);
