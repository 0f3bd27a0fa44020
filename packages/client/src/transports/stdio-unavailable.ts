import type { ClientTransport } from './transport.js';

/** A server the client starts as a child process (Node only). */
export interface CommandTarget {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface StdioTransportOptions {
  readonly maxMessageBytes?: number;
  readonly onStderr?: (line: string) => void;
}

// The variant of `#stdio-transport` for runtimes other than Node (package.json `imports`):
// browsers and Workers cannot start processes.
export function openStdio(
  target: CommandTarget,
  _options?: StdioTransportOptions,
): ClientTransport {
  throw new Error(
    `Cannot start "${target.command}": connecting to a command (stdio) needs Node.js; on this runtime connect to an http(s) URL instead`,
  );
}
