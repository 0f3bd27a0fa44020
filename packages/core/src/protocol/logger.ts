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

export const stderrLogger: Logger = {
  error(message, error) {
    const detail =
      error instanceof Error
        ? (error.stack ?? error.message)
        : error === undefined
          ? ''
          : String(error);
    process.stderr.write(`[mcp-fw] ${message}${detail ? `\n${detail}` : ''}\n`);
  },
  warn(message) {
    process.stderr.write(`[mcp-fw] ${message}\n`);
  },
};
