import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { onFreePort } from '../../../test-support/ports.ts';

/** The built example's entry. */
export const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** The built example serving HTTP with `flag` (`--dev-auth`, `--auth-server`), and what it said. */
export interface StartedNotes {
  readonly child: ChildProcess;
  /** Its MCP endpoint, as it announced it. */
  readonly url: string;
  /** Its stderr up to the announcement. */
  readonly stderr: string;
}

/** Starts it on a free port (another is tried when a test file took the probed one). */
export async function startSecureNotesHttp(flag: string): Promise<StartedNotes> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx tsc -b\` first`);
  // Its canonical URL names its port (--port 0 is refused), so the port is chosen before it
  // listens; a port another test file took meanwhile is tried again on a fresh one.
  let stderr = '';
  const child = await onFreePort(
    (port) =>
      new Promise<ChildProcess>((resolve, reject) => {
        stderr = '';
        const started = spawn(process.execPath, [MAIN, '--http', '--port', String(port), flag], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        started.stderr!.on('data', (chunk) => {
          stderr += chunk;
          if (stderr.includes('MCP server listening')) resolve(started);
        });
        started.once('exit', (code) =>
          reject(new Error(`secure-notes exited with ${code}: ${stderr}`)),
        );
      }),
  );
  return { child, url: /listening on (\S+)/.exec(stderr)![1]!, stderr };
}
