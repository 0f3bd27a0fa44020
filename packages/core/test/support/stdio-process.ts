import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type TestContext } from 'vitest';
import { nodeEntry } from '../../../../test-support/node-entry.ts';
import { patience } from '../../../../test-support/patience.ts';
import { mcpSchema } from './mcp-schema.ts';
import { MCP_SCHEMA_DIR, REPO_ROOT } from './paths.ts';

/** One JSON-RPC message as the server wrote it. */
export type Frame = Record<string, any>;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/stdio-fixture-server.ts');
// How long a wait gives up after on a quiet machine; stretched by the load (patience), since the
// first wait of a test includes the child's start, which under load takes seconds of CPU.
const WAIT_MS = 10_000;
const live = new Set<StdioProcess>();

export interface StdioProcessOptions {
  /** The schema revision stdout is checked against until a handshake says otherwise. */
  revision?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * A server running as a real child process, spoken to over its stdin/stdout. Every line the
 * server writes to stdout is checked as it arrives: it must parse as JSON, be a JSON-RPC message
 * (or a batch of them) and validate against the official schema of `revision`. What fails lands
 * in `problems`, which the tests assert is empty.
 */
export class StdioProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line, verbatim. */
  readonly lines: string[] = [];
  /** Every message read off stdout, batch members included, in order. */
  readonly frames: Frame[] = [];
  readonly problems: string[] = [];
  /**
   * Error responses written with `"id": null`, which JSON-RPC 2.0 requires when the request's id
   * could not be read. No MCP schema admits it: 2025-11-25 types the id `id?: RequestId` (omit,
   * never null), and 2025-06-18 and earlier require a string or integer id. Such frames are
   * listed here, so each test states how many it expects, and the rest of the frame is still
   * validated (as if its id were 0) rather than loosening the check for every frame.
   */
  readonly nullIdErrors: Frame[] = [];
  readonly exited: Promise<Exit>;
  revision: string;
  #stdout = '';
  #stderr = '';
  #nextId = 1000;
  #read = 0;
  readonly #methods = new Map<string, string>();
  readonly #waiters = new Set<() => void>();

  constructor(command: string, args: readonly string[], options: StdioProcessOptions = {}) {
    this.revision = options.revision ?? '2025-11-25';
    const env = { ...process.env, ...options.env };
    this.child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: 'pipe' });
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString('utf8');
      this.#wake();
    });
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        if (this.#stdout) this.#onLine(this.#stdout);
        this.#stdout = '';
        live.delete(this);
        this.#wake();
        resolve({ code, signal });
      });
    });
    live.add(this);
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Writes one line (a newline is appended), exactly as given. */
  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Writes one message; a request's method is remembered to validate its result later. */
  send(message: unknown): void {
    for (const m of Array.isArray(message) ? message : [message]) {
      if (m && typeof m === 'object' && typeof m.method === 'string' && 'id' in m) {
        this.#methods.set(JSON.stringify(m.id), m.method);
      }
    }
    this.sendLine(JSON.stringify(message));
  }

  /** Sends a request with a fresh id and resolves with its response. */
  request(method: string, params?: Record<string, unknown>): Promise<Frame> {
    const id = this.#nextId++;
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.response(id);
  }

  /** `tools/call` with a fresh id; resolves with the response (result or error). */
  callTool(name: string, args: unknown = {}): Promise<Frame> {
    return this.request('tools/call', { name, arguments: args });
  }

  /** The handshake, then `notifications/initialized`; resolves with the initialize response. */
  async initialize(protocolVersion = '2025-11-25'): Promise<Frame> {
    // The InitializeResult is checked against the offered revision's schema when there is one.
    if (existsSync(join(MCP_SCHEMA_DIR, protocolVersion))) this.revision = protocolVersion;
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'stdio-test', version: '1.0.0' },
    });
    if (response.result?.protocolVersion) this.revision = response.result.protocolVersion;
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /** The response (not a request) carrying `id`, already received or still to come. */
  response(id: string | number): Promise<Frame> {
    return this.#until(`a response to id ${JSON.stringify(id)}`, () =>
      this.frames.find((f) => f.id === id && !('method' in f)),
    );
  }

  /** The next stdout line not yet taken by `nextLine` or `readAll`, parsed if it is JSON. */
  nextLine(): Promise<unknown> {
    return this.#until('another stdout line', () => {
      if (this.#read >= this.lines.length) return undefined;
      return { value: parseOrRaw(this.lines[this.#read++]) };
    }).then((box) => box.value);
  }

  /** Every stdout line not yet taken by `nextLine` or `readAll`, parsed; marks them taken. */
  readAll(): unknown[] {
    const unread = this.lines.slice(this.#read).map(parseOrRaw);
    this.#read = this.lines.length;
    return unread;
  }

  /** Resolves once stderr contains `text`. */
  stderrContains(text: string): Promise<void> {
    const what = `stderr to contain ${JSON.stringify(text)}`;
    return this.#until(what, () => this.#stderr.includes(text) || undefined).then(() => undefined);
  }

  /** Messages with this id that are responses, however many arrived. */
  responsesTo(id: string | number): Frame[] {
    return this.frames.filter((f) => f.id === id && !('method' in f));
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.child.kill(signal);
  }

  #until<T>(what: string, probe: () => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value !== undefined) {
          done();
          resolve(value);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done();
          reject(new Error(`server exited while waiting for ${what}; stderr:\n${this.#stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        const output = `stdout:\n${this.lines.join('\n')}\nstderr:\n${this.#stderr}`;
        reject(new Error(`timed out waiting for ${what}; ${output}`));
      }, patience(WAIT_MS));
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #onStdout(text: string): void {
    const parts = (this.#stdout + text).split('\n');
    this.#stdout = parts.pop() ?? '';
    for (const line of parts) this.#onLine(line);
    this.#wake();
  }

  #onLine(line: string): void {
    this.lines.push(line);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.problems.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const items = Array.isArray(value) ? value : [value];
    if (items.length === 0) this.problems.push(`stdout line is an empty batch: ${line}`);
    for (const item of items) this.#onMessage(item, line);
  }

  #onMessage(message: unknown, line: string): void {
    if (typeof message !== 'object' || message === null || (message as Frame).jsonrpc !== '2.0') {
      this.problems.push(`stdout line is not a JSON-RPC message: ${line.slice(0, 200)}`);
      return;
    }
    const frame = message as Frame;
    this.frames.push(frame);
    let checked = frame;
    if ('error' in frame && frame.id === null) {
      this.nullIdErrors.push(frame);
      checked = { ...frame, id: 0 };
    }
    const method = 'result' in frame ? this.#methods.get(JSON.stringify(frame.id)) : undefined;
    for (const problem of mcpSchema(this.revision).check(checked, method)) {
      this.problems.push(`${problem}\n  in: ${line.slice(0, 300)}`);
    }
  }
}

/** A line as JSON, or as the raw text when it is not (`problems` already names such lines). */
function parseOrRaw(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/** Starts the fixture server (packages/core/test/fixtures) as its own node process. */
export function startFixture(options: StdioProcessOptions = {}): StdioProcess {
  // One node process (bundled over @mcp-fw/core's dist, or `node --import tsx` from the sources
  // when they are newer than the build; test-support/node-entry.ts), so signals reach the server
  // directly: the tsx CLI would sit in between as a relaying parent.
  const entry = nodeEntry(FIXTURE);
  const env = { ...entry.env, ...options.env };
  return new StdioProcess(process.execPath, entry.args, { ...options, env });
}

/**
 * Starts the fixture for one test (concurrent tests included): when the test finishes, every
 * stdout line must have passed the checks, and the process is killed if it still runs.
 */
export function fixtureForTest(test: TestContext, options: StdioProcessOptions = {}): StdioProcess {
  const server = startFixture(options);
  test.onTestFinished(async () => {
    const problems = [...server.problems];
    server.kill('SIGKILL');
    await server.exited;
    expect(problems).toEqual([]);
  });
  return server;
}

/** Kills every server still running; for afterEach/afterAll. */
export async function stopAll(): Promise<void> {
  const running = [...live];
  for (const p of running) p.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
}
