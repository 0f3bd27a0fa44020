import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** The built conformance fixture, serving HTTP on a free port. */
export interface FixtureProcess {
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:41857/mcp`. */
  readonly url: URL;
  /** The legacy HTTP+SSE stream beside it. */
  readonly sseUrl: URL;
  stop(): Promise<void>;
}

/** Starts `node dist/main.js --http --port 0` and waits for the URL it announces on stderr. */
export function startFixture(): Promise<FixtureProcess> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, '--http', '--port', '0'], {
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
