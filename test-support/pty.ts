import { spawn, spawnSync } from 'node:child_process';

/**
 * util-linux `script` runs a command on a pseudo-terminal, so the program sees a real TTY (raw
 * mode, echo, Ctrl+C as a key), as it does when a person runs it in a terminal.
 */
export const PTY_AVAILABLE = spawnSync('script', ['--version']).status === 0;

/** One exchange: wait until the output shows `prompt`, then type `keys`. */
export type Step = readonly [prompt: string, keys: string];

/**
 * Runs `node <script> <args>` in `cwd` on a pseudo-terminal and answers each prompt once it is on
 * screen, as a person would. Resolves with the exit status and everything the terminal showed.
 * Shared by the CLI's and the scaffolder's tests.
 */
export function runOnTerminal(
  script: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  steps: readonly Step[],
): Promise<{ status: number | null; output: string }> {
  const command = [process.execPath, script, ...args]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  const child = spawn(
    'script',
    ['--quiet', '--flush', '--return', '--command', command, '/dev/null'],
    { cwd, env },
  );
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
