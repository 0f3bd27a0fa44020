/**
 * A failure the user can fix: one sentence saying what went wrong and one saying what to do.
 * The CLI prints both on stderr and exits with `exitCode`; anything else thrown is a bug and
 * gets its stack trace.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The message of anything thrown, for one-line reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
