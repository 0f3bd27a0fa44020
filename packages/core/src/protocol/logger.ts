/** Where the framework reports what the client must not see. Never stdout (stdio frames live there). */
export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
}

export const stderrLogger: Logger = {
  error(message, error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? '' : String(error);
    process.stderr.write(`[mcp-fw] ${message}${detail ? `\n${detail}` : ''}\n`);
  },
  warn(message) {
    process.stderr.write(`[mcp-fw] ${message}\n`);
  },
};
