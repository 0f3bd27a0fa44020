import { spawn, type ChildProcess } from 'node:child_process';
import { StdioChannel } from '@mcp-fw/core/stdio-channel';
import type { Channel, ChannelSink } from '@mcp-fw/core/transport';
import { excerpt, type ClientTransport } from './transport.js';

/** A server the client starts as a child process and talks to over its stdin and stdout. */
export interface CommandTarget {
  /** The program, e.g. `node` or `npx`. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to (and overriding) the client's own environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Options of the stdio transport. */
export interface StdioTransportOptions {
  /** Longest accepted line from the server, in bytes (default 4 MiB). */
  readonly maxMessageBytes?: number;
  /** Each line the server writes on stderr (default: kept for error messages only). */
  readonly onStderr?: (line: string) => void;
}

const STDERR_LINES_KEPT = 10;

/**
 * Starts `target` and speaks newline-delimited JSON on its stdin/stdout, through core's
 * {@link StdioChannel}. Lines on stdout that are not JSON (a server printing to stdout) are kept
 * out of the JSON-RPC engine and reported; the last lines of stderr and the exit status name why
 * the process ended.
 */
export function openStdio(
  target: CommandTarget,
  options: StdioTransportOptions = {},
): ClientTransport {
  const child = spawn(target.command, [...(target.args ?? [])], {
    cwd: target.cwd,
    env: target.env ? { ...process.env, ...target.env } : process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new StdioTransport(child, target, options);
}

class StdioTransport implements ClientTransport {
  readonly kind = 'stdio' as const;
  readonly channel: Channel;
  onWarning?: (message: string) => void;
  readonly #child: ChildProcess;
  readonly #stderr: string[] = [];
  readonly #exited: Promise<void>;
  #noise = 0;
  #lastNoise?: string;
  #endReason?: string;

  constructor(child: ChildProcess, target: CommandTarget, options: StdioTransportOptions) {
    this.#child = child;
    const name = [target.command, ...(target.args ?? [])].join(' ');
    let partial = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.#keepStderr(line, options);
    });
    let sink: ChannelSink | undefined;
    let closed = false;
    const end = (reason: string) => {
      if (closed) return;
      closed = true;
      if (partial) this.#keepStderr(partial, options);
      const tail = this.#stderr.length
        ? `; its stderr ended with: ${this.#stderr.join(' | ')}`
        : '';
      this.#endReason = `${reason}${tail}`;
      sink?.ended();
    };
    this.#exited = new Promise((resolve) => {
      child.once('error', (error) => {
        end(`Cannot run the server "${name}": ${error.message}`);
        resolve();
      });
      child.once('close', (code, signal) => {
        end(
          `The server process "${name}" exited${signal ? ` on ${signal}` : ` with code ${code}`}`,
        );
        resolve();
      });
    });
    // EPIPE when the child is gone: reported through its exit, not as an unhandled error.
    child.stdin?.on('error', () => {});
    const inner = new StdioChannel({
      input: child.stdout as NonNullable<ChildProcess['stdout']>,
      output: child.stdin as NonNullable<ChildProcess['stdin']>,
      maxMessageBytes: options.maxMessageBytes ?? 4 * 1024 * 1024,
    });
    this.channel = {
      start: (s) => {
        sink = s;
        inner.start({
          ...s,
          frame: (text) => {
            let value: unknown;
            try {
              value = JSON.parse(text);
            } catch {}
            if (typeof value === 'object' && value !== null)
              s.frame(text, undefined, undefined, { value });
            else this.#noiseLine(`a line that is not JSON-RPC: '${excerpt(text, 120)}'`);
          },
          oversize: (bytes, limit) =>
            this.#noiseLine(
              `a message of ${bytes} bytes, over the limit of ${limit} (maxMessageBytes)`,
            ),
          // The end is reported once the process is gone, with its exit status.
          ended: () => {},
        });
      },
      send: (frame, route) => inner.send(frame, route),
      // Flushing waits for a drain that never comes once the process is gone.
      close: () => Promise.race([inner.close(), this.#exited]),
    };
  }

  describeEnd(): string | undefined {
    return this.#endReason;
  }

  diagnosis(): string {
    return this.#noise === 0
      ? ''
      : `; meanwhile the server wrote ${this.#noise} thing(s) on stdout that are not JSON-RPC messages, the last: ${this.#lastNoise}`;
  }

  async close(): Promise<void> {
    // The spec's order: close stdin, wait; then SIGTERM, wait; then SIGKILL.
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end();
    if (await settlesWithin(this.#exited, 2000)) return;
    child.kill('SIGTERM');
    if (await settlesWithin(this.#exited, 2000)) return;
    child.kill('SIGKILL');
    await this.#exited;
  }

  #noiseLine(what: string): void {
    this.#noise++;
    this.#lastNoise = what;
    this.onWarning?.(`The server wrote ${what} on stdout; ignored`);
  }

  #keepStderr(line: string, options: StdioTransportOptions): void {
    options.onStderr?.(line);
    if (line.trim() === '') return;
    this.#stderr.push(excerpt(line, 300));
    if (this.#stderr.length > STDERR_LINES_KEPT) this.#stderr.shift();
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
