import { spawn } from 'node:child_process';
import { BIN } from './paths.ts';
import { cliEnv } from './cli-process.ts';

/** One exchange: wait until the output shows `prompt`, then type `keys`. */
export type Step = readonly [prompt: string, keys: string];

/**
 * Runs `mcp-fw <args>` in `cwd` on a pseudo-terminal (util-linux `script`), typing each answer
 * once its prompt is on screen, as a person would. Resolves with everything the terminal showed.
 */
export function runOnTerminal(args: readonly string[], cwd: string, steps: readonly Step[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], { cwd, env: cliEnv({ TERM: 'xterm', COLUMNS: '200' }) });
  const pending = [...steps];
  let output = '';
  let seen = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    while (pending.length > 0) {
      const at = output.indexOf(pending[0][0], seen);
      if (at < 0) break;
      seen = at + pending[0][0].length;
      child.stdin.write(pending.shift()![1]);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
