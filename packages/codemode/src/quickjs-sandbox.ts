import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ScriptOutcome, ScriptSandbox } from '@mcp-fw/core';
import type { CompiledWasm } from './run-quickjs.js';
import type { ToMain, ToWorker, WorkerInput } from './sandbox-worker.js';

/**
 * Limits of {@link quickJsSandbox}; each script gets a fresh QuickJS runtime with them, in a
 * worker thread of its own.
 *
 * @example
 * ```ts
 * quickJsSandbox({ timeoutMs: 2000, memoryBytes: 16 * 1024 * 1024 });
 * ```
 */
export interface QuickJsSandboxOptions {
  /** Wall-clock time for a whole script, tool calls included (default 5,000 ms). */
  readonly timeoutMs?: number;
  /** Heap the script may allocate (default 32 MiB). */
  readonly memoryBytes?: number;
  /** The interpreter's stack, which bounds recursion (default 256 KiB). */
  readonly stackBytes?: number;
}

// The worker is always the built one: from src/ (tests, the source condition) and from dist/
// alike, ../dist/ names it, and a worker needs plain JavaScript to start fast.
const WORKER = new URL('../dist/sandbox-worker.js', import.meta.url);
// QuickJS's WebAssembly, compiled once per process and handed to each worker (which then
// only instantiates it).
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> };
let compiled: Promise<CompiledWasm> | undefined;
const wasmModule = () =>
  (compiled ??= readFile(
    createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'),
  ).then((bytes) => WebAssembly.compile(bytes)));
// What the worker's QuickJS interrupt is given before the thread itself is ended.
const GRACE_MS = 250;

/**
 * The QuickJS sandbox for `server.codeMode()` (experimental): QuickJS compiled to WebAssembly
 * (quickjs-emscripten), one worker thread and one fresh runtime per script, with a heap limit,
 * a stack limit, an interrupt at the deadline, and the thread ended outright if that is not
 * enough. The script sees the ECMAScript built-ins, `tools` and `console` — no `process`,
 * `require`, `fetch`, timers or host objects; values cross as JSON text.
 *
 * @example
 * ```ts
 * import { createServer } from '@mcp-fw/core';
 * import { quickJsSandbox } from '@mcp-fw/codemode';
 *
 * const server = createServer({ name: 'shop', version: '1.0.0', providers: [Orders] });
 * server.codeMode({ sandbox: quickJsSandbox({ timeoutMs: 5000 }) });
 * ```
 */
export function quickJsSandbox(options: QuickJsSandboxOptions = {}): ScriptSandbox {
  const timeoutMs = options.timeoutMs ?? 5000;
  const memoryBytes = options.memoryBytes ?? 32 * 1024 * 1024;
  const stackBytes = options.stackBytes ?? 256 * 1024;
  for (const [name, value] of Object.entries({ timeoutMs, memoryBytes, stackBytes }))
    if (!Number.isInteger(value) || value <= 0)
      throw new TypeError(
        `quickJsSandbox: ${name} must be a positive integer (got ${String(value)}). Fix: leave it out for the default, or pass a whole number.`,
      );
  const limits = { timeoutMs, memoryBytes, stackBytes };
  return {
    limits: { timeoutMs, memoryBytes },
    run: async (code, host) => {
      const input: WorkerInput = {
        wasmModule: await wasmModule(),
        code,
        tools: host.tools,
        limits,
      };
      return new Promise<ScriptOutcome>((resolve) => {
        const worker = new Worker(WORKER, {
          workerData: input,
          // Nothing of the worker reaches the server's stdout (the protocol's, under stdio).
          stdout: true,
          stderr: true,
          resourceLimits: { maxOldGenerationSizeMb: 64, stackSizeMb: 4 },
        });
        worker.stdout.resume();
        worker.stderr.resume();
        let settled = false;
        const finish = (outcome: ScriptOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          resolve(outcome);
        };
        const timer = setTimeout(
          () => finish({ ok: false, reason: 'timeout', message: 'timed out' }),
          timeoutMs + GRACE_MS,
        );
        // A host limit reached (tool calls, output): the host says why; the script just ends.
        const stopIfHostStopped = () => {
          if (host.stopped) finish({ ok: false, reason: 'error', message: 'stopped by the host' });
        };
        worker.on('message', (message: ToMain) => {
          if (message.type === 'done') return finish(message.outcome as ScriptOutcome);
          if (message.type === 'log') {
            try {
              host.log(message.line);
            } catch {
              // host.stopped is set: ended just below.
            }
            return stopIfHostStopped();
          }
          host.call(message.name, JSON.parse(message.args)).then(
            (value) =>
              reply({
                type: 'result',
                id: message.id,
                ok: true,
                json: JSON.stringify(value ?? null),
              }),
            (error: unknown) => {
              reply({
                type: 'result',
                id: message.id,
                ok: false,
                message: error instanceof Error ? error.message : String(error),
              });
              stopIfHostStopped();
            },
          );
        });
        const reply = (message: ToWorker) => {
          if (!settled) worker.postMessage(message);
        };
        worker.on('error', (error: Error & { code?: string }) =>
          finish(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? { ok: false, reason: 'memory', message: error.message }
              : { ok: false, reason: 'error', message: `the sandbox failed (${error.message})` },
          ),
        );
        worker.on('exit', () =>
          finish({ ok: false, reason: 'error', message: 'the sandbox ended without an answer' }),
        );
      });
    },
  };
}
