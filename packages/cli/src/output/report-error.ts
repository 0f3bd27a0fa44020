import { CliError } from './cli-error.js';
import { exitAfterFlush } from './stdout.js';
import { styleFor } from './style.js';

/** Prints an error the way every command does and returns the exit code it calls for. */
export function reportError(error: unknown): number {
  const style = styleFor(process.stderr);
  if (error instanceof CliError) {
    process.stderr.write(`${style.red(`mcp-fw: ${error.message}`)}\n${error.fix}\n`);
    return error.exitCode;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    `${style.red('mcp-fw: unexpected error (a bug in mcp-fw, please report it):')}\n${detail}\n`,
  );
  return 1;
}

/**
 * Runs a command that loads the user's server and then exits, whatever that server left
 * running (timers, sockets): with `body`'s exit code, or the error's.
 */
export async function runToExit(body: () => Promise<number>): Promise<never> {
  let code: number;
  try {
    code = await body();
  } catch (error) {
    code = reportError(error);
  }
  return exitAfterFlush(code);
}
