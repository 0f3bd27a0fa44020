import { runOnTerminal as run, type Step } from '../../../../test-support/pty.ts';
import { BIN } from './paths.ts';
import { cliEnv } from './cli-process.ts';

export type { Step };

/** Runs `mcp-fw <args>` in `cwd` on a pseudo-terminal, typing each answer once its prompt shows. */
export async function runOnTerminal(
  args: readonly string[],
  cwd: string,
  steps: readonly Step[],
): Promise<{ code: number | null; output: string }> {
  const { status, output } = await run(
    BIN,
    args,
    cwd,
    cliEnv({ TERM: 'xterm', COLUMNS: '200' }),
    steps,
  );
  return { code: status, output };
}
