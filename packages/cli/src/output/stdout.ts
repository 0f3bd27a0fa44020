let real: ((text: string) => boolean) | undefined;

/**
 * Takes stdout for the CLI's own output: from here on, anything else written to stdout (the
 * user's modules logging while they load or run) goes to stderr, so `--json` stays parseable.
 * Returns the writer for the CLI's output.
 */
export function takeStdout(): (text: string) => void {
  if (!real) {
    real = process.stdout.write.bind(process.stdout) as (text: string) => boolean;
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
      (process.stderr.write as (...args: unknown[]) => boolean)(
        chunk,
        ...rest,
      )) as typeof process.stdout.write;
  }
  const write = real;
  return (text) => void write(text);
}

/**
 * Exits once stdout and stderr are flushed. Commands that load the user's server end this way:
 * its timers or sockets must not keep a finished command alive.
 */
export function exitAfterFlush(code: number): Promise<never> {
  return new Promise(() => {
    let pending = 2;
    const done = () => {
      if (--pending === 0) process.exit(code);
    };
    process.stdout.write('', done);
    process.stderr.write('', done);
  });
}
