import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** What came back for one request: its result, its error, or nothing (cancelled first). */
export type Outcome =
  | { result: any }
  | { error: { code: number; message: string } }
  | { cancelled: true };

/**
 * A stdio MCP client for the soak: requests that can be cancelled (the promise then settles as
 * cancelled at once; an answer already on its way is counted, not awaited) and a stderr tail.
 */
export class SoakStdioClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Answers that arrived for requests already cancelled (allowed: they crossed the cancel). */
  lateAnswers = 0;
  stderr = '';
  #pending = new Map<number, (outcome: Outcome) => void>();
  #nextId = 1;
  #partial = '';

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.#onData(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on(
      'data',
      (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-8000)),
    );
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Sends a request; `cancelAfterMs` sends notifications/cancelled that long after it. */
  request(
    method: string,
    params: Record<string, unknown>,
    cancelAfterMs?: number,
  ): Promise<Outcome> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#write({ jsonrpc: '2.0', id, method, params });
      if (cancelAfterMs === undefined) return;
      setTimeout(() => {
        if (!this.#pending.delete(id)) return;
        this.#write({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'soak' },
        });
        resolve({ cancelled: true });
      }, cancelAfterMs);
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.#write({ jsonrpc: '2.0', method, params });
  }

  /** Ends stdin (the server shuts down on EOF); resolves with how it exited. */
  async close(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const exit = await this.exited;
    clearTimeout(timer);
    for (const resolve of this.#pending.values()) resolve({ cancelled: true });
    this.#pending.clear();
    return exit;
  }

  #write(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #onData(chunk: string): void {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop()!;
    for (const line of lines) {
      if (line.trim() === '') continue;
      const message = JSON.parse(line) as {
        id?: number;
        result?: unknown;
        error?: { code: number; message: string };
        method?: string;
      };
      if (message.method !== undefined) {
        // The server asks (elicitation): answer as a user would; notifications need nothing.
        if (message.id !== undefined)
          this.#write({
            jsonrpc: '2.0',
            id: message.id,
            result: { action: 'accept', content: { name: 'soak' } },
          });
        continue;
      }
      if (message.id === undefined) continue;
      const resolve = this.#pending.get(message.id);
      if (!resolve) {
        this.lateAnswers++;
        continue;
      }
      this.#pending.delete(message.id);
      resolve(message.error ? { error: message.error } : { result: message.result });
    }
  }
}
