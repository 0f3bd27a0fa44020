import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLE = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../../../node_modules/.bin/', import.meta.url));
const SCRIPTS: Record<string, string> = JSON.parse(
  readFileSync(join(EXAMPLE, 'package.json'), 'utf8'),
).scripts;

/** The runtimes the fixture is served on: this Node, Bun and Deno from the root devDependencies, workerd (start:workers), or the local serverless platform (start:serverless). */
export type FixtureRuntime = 'node' | 'bun' | 'deno' | 'workers' | 'serverless';

/**
 * The command of package.json's `start` (node), `start:bun` or `start:deno` script after its
 * `tsc -b &&` (the tests build first), so a test of the runtime is a test of the documented script.
 */
export function startCommand(runtime: FixtureRuntime): [string, string[]] {
  const script = SCRIPTS[runtime === 'node' ? 'start' : `start:${runtime}`];
  const [command, ...args] = script.replace(/^tsc -b && /, '').split(' ');
  return [command === 'node' ? process.execPath : join(BIN, command), args];
}

/** The built conformance fixture, serving HTTP on a free port. */
export interface FixtureProcess {
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:41857/mcp`. */
  readonly url: URL;
  /** The legacy HTTP+SSE stream beside it. */
  readonly sseUrl: URL;
  stop(): Promise<void>;
}

/**
 * Starts `node dist/main.js --http --port 0` (or the same file on Bun or Deno) and waits for the
 * URL it announces on stderr.
 */
export function startFixture(runtime: FixtureRuntime = 'node'): Promise<FixtureProcess> {
  const [command, args] = startCommand(runtime);
  const child: ChildProcess = spawn(command, [...args, '--http', '--port', '0'], {
    cwd: EXAMPLE,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (!match) return;
      const url = new URL(match[1]);
      resolve({
        url,
        sseUrl: new URL('/sse', url),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) =>
      reject(new Error(`fixture exited with ${code} before listening:\n${stderr}`)),
    );
  });
}
