import type { ServerConnection } from './protocol/index.js';
import type { Servable, ServedConnection } from './servable.js';
import { guardStdout } from './transports/stdout-guard.js';
import { StdioChannel } from './transports/stdio.js';
import { useYoungGeneration, type YoungGeneration } from './transports/young-generation.js';

export type { YoungGeneration };

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
  /**
   * How V8 sizes its young generation (where short-lived objects live) in this process.
   * `v8-default` (default): the framework sets no V8 flag, and V8 grows the space under
   * sustained load. `compact`: an opt-in that keeps it near its starting size, for a lower peak
   * RSS under sustained load at about the same CPU per call (see bench/README.md). It sets a
   * process-wide V8 flag when `serveStdio` runs, so it affects everything else in the process
   * too; start-up garbage made before that is not covered (`node --max-semi-space-size=1`
   * covers it). Node flags of your own (`--max-semi-space-size`, …) win.
   *
   * @example
   * ```ts
   * serveStdio(server, { youngGeneration: 'compact' });
   * ```
   */
  youngGeneration?: YoungGeneration;
}

/** A running stdio server. */
export interface StdioHandle<C extends ServedConnection = ServerConnection> {
  readonly connection: C;
  /** Resolves when the server has shut down (stdin EOF, SIGINT, SIGTERM or {@link close}). */
  readonly closed: Promise<void>;
  /**
   * Shuts the server down, letting calls in flight finish within `shutdownGraceMs`, then lets
   * middleware flush what it buffered (telemetry's spans and metrics).
   */
  close(): Promise<void>;
}

/** The longest stdio message accepted by default: 4 MiB. */
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
  if (options.youngGeneration) useYoungGeneration(options.youngGeneration);
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
    (closing ??= connection.engine
      .close(grace)
      // What middleware buffered (spans, metrics) goes out before the process may end.
      .then(() => server.flush?.())
      .then(() => {
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
