import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { browse } from '../../auth/test/support/authorization-server.ts';
import { MemoryOAuthClient } from '../../auth/test/support/oauth-client.ts';
import { onFreePort } from '../../../test-support/ports.ts';
import { REPO_ROOT, runCli, tempDir } from './support/cli.ts';
import { cleanEnv } from './support/packed.ts';

// Issue 29 row: "the OAuth template's npm run dev" had no hot reload (build && node … --dev-auth)
// and a new issuer every start. A project scaffolded with --auth oauth (without installing: the
// repository's node_modules stand in), its `npm run dev` run as written.

const work = tempDir('oauth-dev');
afterAll(() => work.remove());
let running: ChildProcess | undefined;
afterEach(() => {
  if (running && running.exitCode === null && running.signalCode === null)
    process.kill(-running.pid!, 'SIGTERM');
  running = undefined;
});
const REDIRECT = 'http://127.0.0.1:9/callback';

/** `npm run dev` in `dir`; its stderr so far, and a wait for the n-th "listening" line. */
function dev(dir: string, port: number) {
  const child = spawn('npm', ['run', 'dev', '--silent'], {
    cwd: dir,
    env: cleanEnv({ PORT: String(port) }),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running = child;
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const listening = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 90_000;
      const check = () => {
        if ((stderr.match(/MCP server listening on /g) ?? []).length >= count) return resolve();
        // The watcher outlives a start that failed: a port in use is told at once.
        if (child.exitCode !== null || Date.now() > deadline || /already in use/.test(stderr))
          return reject(new Error(`npm run dev did not listen (${count}):\n${stderr}`));
        setTimeout(check, 50);
      };
      check();
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      process.kill(-child.pid!, 'SIGTERM');
    });
  return { stderr: () => stderr, listening, stop };
}

it("the OAuth template's npm run dev reloads on save, keeps the client signed in, and its issuer is the same every start", async () => {
  const cwd = join(work.dir, 'checkout');
  mkdirSync(cwd, { recursive: true });
  const scaffolded = await runCli(
    ['notes', '--template', 'http', '--auth', 'oauth', '--no-git', '--no-install', '--yes'],
    { cwd },
  );
  expect(scaffolded.status, scaffolded.stderr).toBe(0);
  const dir = join(cwd, 'notes');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  expect(pkg.scripts.dev).toBe('tsx src/dev.ts');
  // The repository's packages stand in for an install (its .bin included, for tsx).
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules')))
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name));

  // The server is told its port (and its authorization server takes the next one): a port taken
  // meanwhile by another test file is tried again on a fresh one.
  const { port, first } = await onFreePort(async (port) => {
    const first = dev(dir, port);
    try {
      await first.listening(1);
    } catch (error) {
      await first.stop();
      throw error;
    }
    return { port, first };
  });
  const issuer = `http://127.0.0.1:${port + 1}`;
  const url = `http://127.0.0.1:${port}/mcp`;
  expect(first.stderr()).toContain(`Development authorization server`);
  expect(first.stderr()).toContain(issuer);
  const metadata = async () =>
    (await (
      await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as {
      authorization_servers: string[];
    };
  expect((await metadata()).authorization_servers).toEqual([issuer]);

  // A client signs in once (dynamic registration, PKCE) …
  const oauth = new MemoryOAuthClient(undefined, REDIRECT);
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      authProvider: oauth as any,
    });
    const client = new Client(
      { name: 'oauth-dev-reload', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(transport);
    return client;
  };
  await connect().catch(() => undefined);
  await new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth as any }).finishAuth(
    await browse(oauth.lastAuthorizationUrl!, REDIRECT),
  );
  const client = await connect();
  const describeList = async () =>
    (await client.listTools()).tools.find((t) => t.name === 'list_notes')?.description;
  expect(await describeList()).toBe('Lists every saved note');
  const authorizations = oauth.lastAuthorizationUrl;

  // … a save reloads the server, and the same client, with the same token, sees the change.
  const notes = join(dir, 'src/notes.ts');
  writeFileSync(
    notes,
    readFileSync(notes, 'utf8').replace("'Lists every saved note'", "'Lists the saved notes'"),
  );
  await first.listening(2);
  expect(await describeList()).toBe('Lists the saved notes');
  expect(oauth.lastAuthorizationUrl).toBe(authorizations);
  await client.close();
  await first.stop();

  // The next start names the same issuer.
  const second = dev(dir, port);
  await second.listening(1);
  expect((await metadata()).authorization_servers).toEqual([issuer]);
  await second.stop();
}, 240_000);
