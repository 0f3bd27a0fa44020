import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { serverRuntime } from './config.js';

/** A response as it came off the wire, stamped when its line was complete (before parsing). */
export interface Reply {
  readonly result: Record<string, unknown>;
  readonly receivedAt: number;
  readonly bytes: number;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

export interface SpawnOptions {
  readonly env?: Record<string, string>;
  readonly nodeArgs?: readonly string[];
  /** A command that runs the server's node, e.g. `['valgrind', '--tool=callgrind']`. */
  readonly wrapper?: readonly string[];
}

const live = new Set<ChildProcessWithoutNullStreams>();

/** Kills every server still running; the harness calls this on any way out. */
export function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * A minimal MCP client over a spawned server's stdio. Writes issued in the same tick leave as
 * one chunk, so the client's own syscalls stay out of the way of pipelined measurements.
 */
export class StdioClient {
  readonly spawnedAt: number;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #partial = '';
  #stderr = '';
  #out: string[] = [];
  #flushQueued = false;
  #exit?: Error;
  readonly exited: Promise<void>;

  constructor(script: string, options: SpawnOptions = {}) {
    this.spawnedAt = performance.now();
    const [command = serverRuntime, ...args] = [
      ...(options.wrapper ?? []),
      serverRuntime,
      ...(options.nodeArgs ?? []),
      script,
    ];
    this.#child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(this.#child);
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => this.#onData(chunk));
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on(
      'data',
      (chunk: string) => (this.#stderr = (this.#stderr + chunk).slice(-4000)),
    );
    // EPIPE when the server died: reported through the exit below, with its stderr.
    this.#child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        live.delete(this.#child);
        const why = `code ${code}, signal ${signal}`;
        this.#exit = new Error(`server ${script} exited (${why})${this.#stderrTail()}`);
        for (const pending of this.#pending.values()) pending.reject(this.#exit);
        this.#pending.clear();
        resolve();
      });
    });
    this.#child.once('error', (error) => {
      this.#exit = error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    });
  }

  /** The last 4,000 characters the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  get pid(): number {
    if (this.#child.pid === undefined) throw new Error('server did not start');
    return this.#child.pid;
  }

  request(method: string, params?: Record<string, unknown>): Promise<Reply> {
    if (this.#exit) return Promise.reject(this.#exit);
    const id = this.#nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.#write(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  /** Closes stdin (servers exit on EOF) and kills the server if it has not gone in `graceMs`. */
  async close(graceMs = 3000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  #write(line: string): void {
    this.#out.push(line);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    process.nextTick(() => {
      this.#flushQueued = false;
      const chunk = `${this.#out.join('\n')}\n`;
      this.#out = [];
      this.#child.stdin.write(chunk);
    });
  }

  #onData(chunk: string): void {
    let start = 0;
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.#partial += chunk;
      return;
    }
    const receivedAt = performance.now();
    while (newline !== -1) {
      const piece = chunk.slice(start, newline);
      const line = start === 0 && this.#partial ? this.#partial + piece : piece;
      if (start === 0) this.#partial = '';
      this.#onLine(line, receivedAt);
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.#partial = chunk.slice(start);
  }

  #onLine(line: string, receivedAt: number): void {
    if (line.trim() === '') return;
    const message = JSON.parse(line) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: unknown;
    };
    if (message.id === undefined) return; // a notification from the server
    const pending = this.#pending.get(message.id);
    if (!pending) throw new Error(`response to unknown id ${message.id}`);
    this.#pending.delete(message.id);
    if (message.error !== undefined || message.result === undefined) {
      pending.reject(
        new Error(`error response: ${JSON.stringify(message.error)}${this.#stderrTail()}`),
      );
    } else {
      pending.resolve({ result: message.result, receivedAt, bytes: Buffer.byteLength(line) });
    }
  }

  #stderrTail(): string {
    return this.#stderr ? `\n--- server stderr (tail) ---\n${this.#stderr}` : '';
  }
}
