import type { ChildProcess } from 'node:child_process';
import { patience } from './patience.ts';

/**
 * The URL `child` announces on stderr once it listens (`MCP server listening on http://…`).
 * Rejects, quoting what it wrote, when it exits first or stays silent past a deadline stretched
 * by the machine's load (a hang fails naming the server, not as a test timeout). `child` must
 * be spawned with stderr piped, and this called before its first output can be missed.
 *
 * @example
 * const child = spawn(process.execPath, ['dist/main.js', '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
 * const url = await listeningUrl(child);
 */
export function listeningUrl(child: ChildProcess, what = 'the server'): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} announced no URL in time:\n${text}`)),
      patience(15_000),
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}):\n${text}`));
    });
  });
}
