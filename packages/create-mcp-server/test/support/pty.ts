import { runOnTerminal, PTY_AVAILABLE, type Step } from '../../../../test-support/pty.ts';
import { BIN, NPM_USER_AGENT } from './cli.ts';

export { PTY_AVAILABLE, type Step };

/** Runs the scaffolder's bin in `cwd` on a pseudo-terminal, as `npm create` would in a terminal. */
export function runInPty(
  args: readonly string[],
  cwd: string,
  steps: readonly Step[],
): Promise<{ status: number | null; output: string }> {
  return runOnTerminal(
    BIN,
    args,
    cwd,
    { ...process.env, npm_config_user_agent: NPM_USER_AGENT, TERM: 'xterm' },
    steps,
  );
}
