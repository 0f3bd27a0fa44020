import type { ServerConnection } from './protocol/index.js';
import type { Servable, ServedConnection } from './servable.js';
import { guardStdout } from './transports/stdout-guard.js';
import { StdioChannel } from './transports/stdio.js';
import { useYoungGeneration, type YoungGeneration } from './transports/young-generation.js';

export type { YoungGeneration };

// Importing this entry point means serving stdio: from here on, nothing but frames reaches stdout.
guardStdout();
// Before the server's own modules load: their start-up garbage is what first grows V8's young
// generation. `serveStdio(server, { youngGeneration: 'v8-default' })` undoes it.
useYoungGeneration('compact');

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Longest accepted message in bytes (default 4 MiB); longer lines get a -32600 error. */
  maxMessageBytes?: number;
  /** How long in-flight calls may run after stdin closes or a signal arrives (default 5000 ms). */
  shutdownGraceMs?: number;
  /** Exit the process once shut down (default true). */
  exit?: boolean;
  /**
   * `compact` (default): V8's young generation keeps its starting size, so a server under
   * sustained load stays small (peak RSS 63 instead of 86 MB after 200,000 benchmark calls, at
   * the same CPU per call). `v8-default`: V8 grows it up to 32 MiB, which can save CPU for
   * handlers that allocate heavily. Node flags of your own (`--max-semi-space-size`, …) win.
   */
  youngGeneration?: YoungGeneration;
}

/** A running stdio server. */
export interface StdioHandle<C extends ServedConnection = ServerConnection> {
  readonly connection: C;
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
export function serveStdio<C extends ServedConnection = ServerConnection>(
  server: Servable<C>,
  options: StdioOptions = {},
): StdioHandle<C> {
  useYoungGeneration(options.youngGeneration ?? 'compact');
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
