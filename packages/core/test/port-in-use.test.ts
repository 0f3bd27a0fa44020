import { spawn } from 'node:child_process';
import { createServer as createNetServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@mcp-fw/core';
import { PortInUseError, serveHttp } from '@mcp-fw/core/node';
import { freePort, onFreePort } from '../../../test-support/ports.ts';
import { REPO_ROOT } from './support/paths.ts';

const HTTP_OAUTH = join(REPO_ROOT, 'templates/http-oauth');

let holders: Server[] = [];
afterEach(async () => {
  for (const holder of holders) await new Promise((resolve) => holder.close(resolve));
  holders = [];
});

/** Another process's listener, as far as the server under test can tell: a port it cannot have. */
async function takenPort(): Promise<number> {
  const holder = createNetServer();
  holders.push(holder);
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return (holder.address() as AddressInfo).port;
}

/** Runs `node <args>` to its end (or 20 s, then kills it: a hang is a failure too). */
function runNode(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise<{
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
  }>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

describe('Errors name cause and fix: a port in use', () => {
  it('a port in use: serveHttp rejects with the port, how to find who holds it, and the option to change', async () => {
    const port = await takenPort();
    const server = createServer({ name: 'taken', version: '1.0.0' });
    const failure = await serveHttp(server, { port }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PortInUseError);
    const error = failure as PortInUseError;
    expect(error).toMatchObject({ port, host: '127.0.0.1', code: 'EADDRINUSE' });
    expect(error.message).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(error.message).toContain(`lsof -nP -iTCP:${port} -sTCP:LISTEN`);
    expect(error.message).toContain("serveHttp's port option");
    expect(error.fix('--port <n>')).toContain('--port <n> (0 picks a free one)');
    expect((error.cause as { code?: string }).code).toBe('EADDRINUSE');
  });

  it('a port in use: node dist/main.js (serveFromArgs) names the port, who holds it and --port, and exits 1 without a stack trace', async () => {
    const port = await takenPort();
    const started = Date.now();
    const run = await runNode(
      ['dist/main.js', '--http', '--port', String(port)],
      join(REPO_ROOT, 'examples/calculator'),
    );
    expect(run.signal).toBeNull(); // it exited by itself: no hang
    expect(run.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `MCP server not started: port ${port} on 127.0.0.1 is already in use: another process is listening on it.\n` +
        `See which one with \`lsof -nP -iTCP:${port} -sTCP:LISTEN\` (Linux, macOS) or \`netstat -ano | findstr :${port}\` (Windows) and stop it, or serve on another port with --port <n> (0 picks a free one).\n`,
    );
  });

  it('a port in use: node dist/main.js of the http-oauth template (serveHttp) names the port, who holds it and PORT, and exits 1', async () => {
    const port = await takenPort();
    // Its development authorization server listens first, on DEV_AUTH_PORT (else PORT + 1,
    // which another test file may hold): a port found free, a fresh one if taken meanwhile.
    const run = await onFreePort(async (devAuthPort) => {
      const run = await runNode(['dist/main.js', '--dev-auth'], HTTP_OAUTH, {
        PORT: String(port),
        DEV_AUTH_PORT: String(devAuthPort),
      });
      if (run.stderr.includes(`cannot listen on 127.0.0.1:${devAuthPort}`))
        throw Object.assign(new Error(run.stderr), { code: 'EADDRINUSE' });
      return run;
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `port ${port} on 127.0.0.1 is already in use: another process is listening on it.\n` +
        `See which one with \`lsof -nP -iTCP:${port} -sTCP:LISTEN\``,
    );
    expect(run.stderr).toContain('serve on another port with PORT=<n>');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('the dev authorization server port in use: the http-oauth template names the port and DEV_AUTH_PORT, and exits 1 without a stack trace', async () => {
    const devAuthPort = await takenPort();
    // Never bound: the authorization server starts first, and fails.
    const run = await runNode(['dist/main.js', '--dev-auth'], HTTP_OAUTH, {
      PORT: String(await freePort()),
      DEV_AUTH_PORT: String(devAuthPort),
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `the development authorization server cannot listen on 127.0.0.1:${devAuthPort}: the port is in use`,
    );
    expect(run.stderr).toContain('with DEV_AUTH_PORT=<port>.');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
