/**
 * The HTTP server could not listen: another process holds the port. Its message names the port,
 * how to find the process holding it, and how to serve elsewhere; `reason` and `fix()` are the
 * two halves, for a command line that prints them apart and names its own option.
 *
 * @example
 * ```ts
 * try {
 *   await serveHttp(server, { port: 3000 });
 * } catch (error) {
 *   if (!(error instanceof PortInUseError)) throw error;
 *   console.error(error.message); // port 3000 on 127.0.0.1 is already in use … --port …
 *   process.exit(1);
 * }
 * ```
 */
export class PortInUseError extends Error {
  /** Node's code for it, kept so that code checking `error.code` still recognises it. */
  readonly code = 'EADDRINUSE';
  /** What happened, in one sentence. */
  readonly reason: string;

  /**
   * @param port The port asked for.
   * @param host The interface it was asked on.
   * @param options `cause`: Node's own `EADDRINUSE` error.
   */
  constructor(
    /** The port asked for. */
    readonly port: number,
    /** The interface it was asked on. */
    readonly host: string,
    options?: { cause?: unknown },
  ) {
    const reason = `port ${port} on ${host} is already in use: another process is listening on it.`;
    super(`${reason} ${fixFor(port, "serveHttp's port option")}`, options);
    this.name = 'PortInUseError';
    this.reason = reason;
  }

  /**
   * What to do, in one sentence, naming `option` as the way to choose another port (a command
   * line says `--port <n>`).
   */
  fix(option: string): string {
    return fixFor(this.port, option);
  }
}

function fixFor(port: number, option: string): string {
  return (
    `See which one with \`lsof -nP -iTCP:${port} -sTCP:LISTEN\` (Linux, macOS) or ` +
    `\`netstat -ano | findstr :${port}\` (Windows) and stop it, or serve on another port with ` +
    `${option} (0 picks a free one).`
  );
}

/** Whether `error` is Node's "address already in use" from `listen`. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE';
}
