/**
 * Where the framework reports what the client must not see. Never stdout (stdio frames live there).
 *
 * @example
 * ```ts
 * const logger: Logger = { error: (m, e) => pino.error({ err: e }, m), warn: (m) => pino.warn(m) };
 * createServer({ name: 'x', version: '1', providers: [Tools], logger });
 * ```
 */
export interface Logger {
  /** Something failed; `error` is the thrown value, if any. */
  error(message: string, error?: unknown): void;
  /** Something the server's owner should fix. */
  warn(message: string): void;
}

// console.error is stderr on every runtime (process.stderr on Node, Deno and Bun; the devtools
// or log tail elsewhere), and unlike a bare process.stderr.write it never throws when stderr is
// a closed pipe.
export const stderrLogger: Logger = {
  error(message, error) {
    const detail =
      error instanceof Error
        ? (error.stack ?? error.message)
        : error === undefined
          ? ''
          : String(error);
    console.error(`[mcp-fw] ${message}${detail ? `\n${detail}` : ''}`);
  },
  warn(message) {
    console.error(`[mcp-fw] ${message}`);
  },
};
