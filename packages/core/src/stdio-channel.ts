// `@mcp-fw/core/stdio-channel`: core's newline-delimited JSON channel over any pair of Node
// streams, without the stdout guard that `@mcp-fw/core/stdio` installs on import — for code that
// talks stdio to another process (a client launching a server, a relay).

/**
 * A {@link Channel} over a readable and a writable stream, newline-delimited JSON (the MCP stdio
 * transport): lines longer than `maxMessageBytes` are discarded as they stream in and reported to
 * the sink as oversize; writes of one event-loop turn leave as one chunk.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { StdioChannel } from '@mcp-fw/core/stdio-channel';
 *
 * const child = spawn('node', ['server.js'], { stdio: ['pipe', 'pipe', 'inherit'] });
 * const channel = new StdioChannel({ input: child.stdout, output: child.stdin, maxMessageBytes: 4 * 1024 * 1024 });
 * ```
 */
export { StdioChannel, type StdioChannelOptions, type FrameOutput } from './transports/stdio.js';
export type { Channel } from './jsonrpc/index.js';
