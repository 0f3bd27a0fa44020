import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { cliEnv, listeningUrl, runCli } from './support/cli-process.ts';

const SECURE_NOTES = fileURLToPath(
  new URL('../../../examples/secure-notes/dist/main.js', import.meta.url),
);
const cwd = fileURLToPath(new URL('.', import.meta.url));

describe('mcp-fw auth doctor', () => {
  let notes: ChildProcess;
  let notesUrl: string;
  beforeAll(async () => {
    // The server's canonical URL names its port, so it needs a fixed one: a free one, found first.
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    notes = spawn(
      process.execPath,
      [SECURE_NOTES, '--http', '--port', String(port), '--dev-auth'],
      {
        env: cliEnv(),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    notes.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    notesUrl = await listeningUrl(() => stderr, notes);
  });
  afterAll(() => {
    notes?.kill('SIGTERM');
  });

  it('passes on examples/secure-notes (--dev-auth)', async () => {
    const run = await runCli(['auth', 'doctor', notesUrl], cwd);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('✗');
    for (const check of [
      'metadata at the path-aware URL',
      'metadata at the root URL',
      'metadata readable by browser clients (CORS)',
      'resource matches the URL',
      'authorization servers listed',
      'PKCE S256',
      'authorization and token endpoints',
      'a request without a token gets 401',
      '401 carries a Bearer challenge pointing to the metadata',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^✓ ${check.replace(/[()]/g, '\\$&')}`, 'm'));
    }
    expect(run.stdout).toMatch(/All checks passed\.\n$/);
    expect(run.code).toBe(0);
  });

  describe('on a server with a broken setup', () => {
    let as: Server;
    let handle: HttpServerHandle;
    beforeAll(async () => {
      // An "authorization server" without PKCE S256 and without a token endpoint.
      as = createHttpServer((req, res) => {
        const issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
        if (req.url === '/.well-known/oauth-authorization-server') {
          return res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              issuer,
              authorization_endpoint: `${issuer}/authorize`,
              code_challenge_methods_supported: ['plain'],
            }),
          );
        }
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => as.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
      class Open {
        @Tool('Says hi')
        hi() {
          return 'hi';
        }
      }
      handle = await serveHttp(
        createServer({ name: 'broken', version: '1.0.0', providers: [Open] }),
        {
          port: 0,
          // Metadata only at the path-aware URL, naming another resource, without CORS; a 401 without a challenge.
          routes: (req) =>
            req.url.pathname === '/.well-known/oauth-protected-resource/mcp'
              ? {
                  status: 200,
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify({
                    resource: 'https://elsewhere.example/mcp',
                    authorization_servers: [issuer],
                  }),
                }
              : undefined,
          authenticate: () => ({ reject: { status: 401, message: 'no' } }),
        },
      );
    });
    afterAll(async () => {
      await handle.close();
      await new Promise<void>((resolve) => as.close(() => resolve()));
    });

    it('names each failure with its fix, and exits 1', async () => {
      const run = await runCli(['auth', 'doctor', handle.url], cwd);
      expect(run.code).toBe(1);
      const failed = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('✗ '))
        .map((line) => line.slice(2, line.indexOf(':')));
      expect(failed).toEqual([
        'metadata at the root URL',
        'metadata readable by browser clients (CORS)',
        'resource matches the URL',
        expect.stringMatching(/^PKCE S256 \(http/),
        expect.stringMatching(/^authorization and token endpoints \(http/),
        '401 carries a Bearer challenge pointing to the metadata',
      ]);
      expect(run.stdout).toContain('fix: Set resource to the URL clients use');
      expect(run.stdout).toContain('fix: MCP clients refuse to proceed without PKCE S256');
      expect(run.stdout).toContain(
        `fix: Answer 401 with WWW-Authenticate: Bearer resource_metadata="http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(run.stdout).toMatch(/6 checks failed\.\n$/);
    });
  });

  it('refuses a URL that is not http(s), with the fix', async () => {
    const run = await runCli(['auth', 'doctor', 'ftp://x'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ftp://x is not an http(s) URL.');
  });
});
