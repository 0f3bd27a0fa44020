import { spawn, spawnSync } from 'node:child_process';
import { BIN, NPM_USER_AGENT } from './cli.ts';

/**
 * util-linux `script` runs a command on a pseudo-terminal: the scaffolder then sees a real TTY
 * (raw mode, echo, Ctrl+C as a key), as it does under `npm create` in a terminal.
 */
export const PTY_AVAILABLE = spawnSync('script', ['--version']).status === 0;

/** One exchange: wait until the output shows `prompt`, then type `keys`. */
export type Step = [prompt: string, keys: string];

/**
 * Runs the bin in `cwd` on a pseudo-terminal and answers each prompt as it appears, the way a
 * person would: an answer is typed only once its question is on screen.
 */
export function runInPty(args: readonly string[], cwd: string, steps: readonly Step[]): Promise<{ status: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd,
    env: { ...process.env, npm_config_user_agent: NPM_USER_AGENT, TERM: 'xterm' },
  });
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
    child.on('close', (status) => {
      child.stdin.end();
      resolve({ status, output });
    });
  });
}
