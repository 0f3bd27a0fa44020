import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encode, type FromChild, type Origin, type ToChild } from './mux.js';

/** What one connection opened on a child receives from it. */
export interface SessionHandlers {
  out(frame: string, origin: Origin | undefined, final: boolean | undefined): void;
  settle(origin: Origin): void;
  closed(): void;
}

/** How a child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const RUNNER = fileURLToPath(new URL('./child/runner.js', import.meta.url));

/**
 * The supervisor's end of one child process running the user's server: starts it, parses
 * every line it writes to stdout as a mux message (nothing of it is passed on raw), and routes
 * each connection's traffic to the handlers registered when the connection was opened.
 */
export class ChildLink {
  readonly #child: ChildProcess;
  readonly #sessions = new Map<number, SessionHandlers>();
  readonly #closing = new Set<number>();
  /** Resolves when the entry loaded; rejects with the load failure (or the exit) otherwise. */
  readonly ready: Promise<void>;
  readonly exited: Promise<ChildExit>;
  #alive = true;
  #retiring = false;
  #retireGrace?: number;
  #exit?: ChildExit;

  #shownAs = 'the server';

  /** Starts a child that preloads the modules `preload` imports, then waits for {@link load}. */
  constructor(preload?: string) {
    this.#child = spawn(
      process.execPath,
      ['--enable-source-maps', RUNNER, ...(preload ? [preload] : [])],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    this.#child.stdin!.on('error', () => {});
    this.exited = new Promise((resolve) =>
      this.#child.once('exit', (code, signal) => {
        this.#alive = false;
        this.#exit = { code, signal };
        resolve({ code, signal });
      }),
    );
    let settleReady!: { resolve(): void; reject(error: Error): void };
    this.ready = new Promise((resolve, reject) => (settleReady = { resolve, reject }));
    // A spare may be killed unused: nobody awaits its readiness then.
    this.ready.catch(() => {});
    void this.exited.then(({ code, signal }) =>
      settleReady.reject(
        new Error(`${this.#shownAs} exited during startup (${signal ?? `exit code ${code}`})`),
      ),
    );
    this.#readLines((message) => {
      switch (message.t) {
        case 'ready':
          return settleReady.resolve();
        case 'failed':
          return settleReady.reject(new Error(message.error));
        case 'out':
          return this.#sessions.get(message.s)?.out(message.f, message.o, message.final);
        case 'settle':
          return this.#sessions.get(message.s)?.settle(message.o);
        case 'closed': {
          const handlers = this.#sessions.get(message.s);
          this.#sessions.delete(message.s);
          this.#closing.delete(message.s);
          handlers?.closed();
          if (this.#retiring && this.#sessions.size === 0) this.#child.stdin!.end();
          return;
        }
      }
    });
  }

  get alive(): boolean {
    return this.#alive;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Why the child is gone, as the end of a sentence ("… was not answered: <reason>"). */
  get exitReason(): string {
    if (this.#retireGrace !== undefined) {
      return `mcp-fw dev reloaded the server and the old one did not finish within the ${this.#retireGrace} ms grace period`;
    }
    const exit = this.#exit;
    if (!exit) return 'the server process is still running';
    return `the server process exited (${exit.signal ?? `exit code ${exit.code}`})`;
  }

  /** Loads the compiled entry; {@link ready} tells how that went. */
  load(entry: string, shownAs: string, userDir: string): Promise<void> {
    this.#shownAs = shownAs;
    this.send({ t: 'load', entry, shownAs, userDir });
    return this.ready;
  }

  /** Opens connection `s` on the child. */
  open(
    s: number,
    handlers: SessionHandlers,
    mode?: 'legacy' | 'modern' | 'pin-on-first',
    id?: string,
    remote?: boolean,
  ): void {
    this.#sessions.set(s, handlers);
    this.send({ t: 'open', s, mode, id, remote });
  }

  send(message: ToChild): void {
    if (this.#alive && this.#child.stdin!.writable) this.#child.stdin!.write(encode(message));
  }

  /** Closes connection `s`, letting its calls in flight finish within `grace` ms. */
  close(s: number, grace: number): void {
    if (!this.#sessions.has(s) || this.#closing.has(s)) return;
    this.#closing.add(s);
    this.send({ t: 'close', s, grace });
  }

  /**
   * Takes the child out of service: each session closes its connection here once the calls it
   * still has on it are done, and the child exits when none is left. It is killed if it
   * outstays the grace period.
   */
  retire(grace: number): Promise<ChildExit> {
    if (!this.#retiring) {
      this.#retiring = true;
      this.#retireGrace = grace;
      if (this.#sessions.size === 0) this.#child.stdin!.end();
      const timer = setTimeout(() => this.kill(), grace + 2000);
      timer.unref();
      void this.exited.then(() => clearTimeout(timer));
    }
    return this.exited;
  }

  kill(): void {
    if (this.#alive) this.#child.kill('SIGKILL');
  }

  #readLines(onMessage: (message: FromChild) => void): void {
    let rest = '';
    this.#child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        let message: FromChild;
        try {
          message = JSON.parse(line) as FromChild;
        } catch {
          // Something wrote to fd 1 behind the runner's back: show it, never relay it.
          process.stderr.write(`[mcp-fw dev] child stdout: ${line}\n`);
          continue;
        }
        onMessage(message);
      }
    });
  }
}
