import type { ServerConnection } from './protocol/index.js';
import type { McpServer } from './server.js';
import { guardStdout } from './stdout-guard.js';
import { StdioChannel } from './transports/stdio.js';

// Importing this entry point means serving stdio: from here on, nothing but frames reaches stdout.
guardStdout();

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Longest accepted message in bytes (default 4 MiB); longer lines get a -32600 error. */
  maxMessageBytes?: number;
  /** How long in-flight calls may run after stdin closes or a signal arrives (default 5000 ms). */
  shutdownGraceMs?: number;
  /** Exit the process once shut down (default true). */
  exit?: boolean;
}

/** A running stdio server. */
export interface StdioHandle {
  readonly connection: ServerConnection;
  /** Resolves when the server has shut down (stdin EOF, SIGINT, SIGTERM or {@link close}). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Serves `server` over stdin/stdout (newline-delimited JSON), the transport desktop clients
 * launch servers with. Shuts down gracefully on stdin EOF, SIGINT and SIGTERM.
 *
 * @example
 * ```ts
 * import { serveStdio } from '@mcp-fw/core/stdio';
 * await serveStdio(createServer({ name: 'calc', version: '1.0.0', providers: [Calculator] }));
 * ```
 */
export function serveStdio(server: McpServer, options: StdioOptions = {}): StdioHandle {
  const channel = new StdioChannel({
    input: process.stdin,
    output: guardStdout(),
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  });
  const connection = server.connect(channel);
  const grace = options.shutdownGraceMs ?? 5000;
  let closing: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const close = (): Promise<void> =>
    (closing ??= connection.engine.close(grace).then(() => {
      process.off('SIGINT', close);
      process.off('SIGTERM', close);
      markClosed();
      if (options.exit ?? true) process.exit(0);
    }));
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  connection.engine.onInputEnded(() => void close());
  return { connection, closed, close };
}
