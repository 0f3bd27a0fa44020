import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './support/cleanups.ts';
import { spawnCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';
import { fixtureProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

/** A port another listener holds for the whole test. */
async function takenPort(): Promise<number> {
  const holder = createNetServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  cleanup(() => new Promise((resolve) => holder.close(resolve)));
  return (holder.address() as AddressInfo).port;
}

/** Runs `mcp-fw <args>`; a run still going after 20 s is killed and fails the test (a hang). */
async function runToEnd(args: string[], cwd: string) {
  const { child, exited } = spawnCli(args, cwd);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const run = await exited;
  clearTimeout(timer);
  return { ...run, killed: child.signalCode !== null };
}

function expectPortAdvice(stderr: string, port: number, option: string) {
  expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
  expect(stderr).toContain(`lsof -nP -iTCP:${port} -sTCP:LISTEN`);
  expect(stderr).toContain(`serve on another port with ${option}`);
  expect(stderr).not.toContain('unexpected error');
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('Errors name cause and fix: a port in use', () => {
  it('a port in use: mcp-fw dev --http names the port, who holds it and --port, and exits 1 without hanging', async () => {
    const port = await takenPort();
    const project = fixtureProject('greeter');
    cleanup(() => project.remove());
    const run = await runToEnd(
      ['dev', 'src/server.ts', '--http', '--port', String(port)],
      project.dir,
    );
    expect(run.killed).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^mcp-fw: port ${port} on 127\\.0\\.0\\.1`, 'm'));
    expectPortAdvice(run.stderr, port, '--port <n> (or PORT=<n>)');
  });

  it('a port in use: mcp-fw start --http names the port, who holds it and --port, and exits 1', async () => {
    const port = await takenPort();
    const calculator = join(REPO_ROOT, 'examples/calculator');
    const run = await runToEnd(
      ['start', 'dist/server.js', '--http', '--port', String(port)],
      calculator,
    );
    expect(run.killed).toBe(false);
    expect(run.code).toBe(1);
    expectPortAdvice(run.stderr, port, '--port <n>');
  });
});
