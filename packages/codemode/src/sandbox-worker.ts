import { parentPort, workerData } from 'node:worker_threads';
import { runQuickJs, type CompiledWasm, type ScriptLimits } from './run-quickjs.js';

/** What the sandbox sends the worker it starts. */
export interface WorkerInput {
  readonly wasmModule: CompiledWasm;
  readonly code: string;
  readonly tools: readonly string[];
  readonly limits: ScriptLimits;
}

/** Messages between the sandbox (main thread) and its worker. */
export type ToMain =
  | { type: 'call'; id: number; name: string; args: string }
  | { type: 'log'; line: string }
  | { type: 'done'; outcome: unknown };
export type ToWorker =
  | { type: 'result'; id: number; ok: true; json: string }
  | {
      type: 'result';
      id: number;
      ok: false;
      message: string;
    };

// The worker runs one script: tool calls and log lines go to the main thread as messages, and
// the main thread can end it at any moment (worker.terminate) — even inside a native call
// QuickJS cannot interrupt, such as a huge String.prototype.repeat.
const port = parentPort;
if (port) {
  const input = workerData as WorkerInput;
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  port.on('message', (message: ToWorker) => {
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.ok) call.resolve(JSON.parse(message.json));
    else call.reject(new Error(message.message));
  });
  const send = (message: ToMain) => port.postMessage(message);
  runQuickJs(
    input.wasmModule,
    input.code,
    {
      tools: input.tools,
      stopped: false,
      call: (name, args) =>
        new Promise((resolve, reject) => {
          const id = next++;
          waiting.set(id, { resolve, reject });
          send({ type: 'call', id, name, args: JSON.stringify(args ?? {}) });
        }),
      log: (line) => send({ type: 'log', line }),
    },
    input.limits,
  ).then(
    (outcome) => send({ type: 'done', outcome }),
    (error: unknown) =>
      send({ type: 'done', outcome: { ok: false, reason: 'error', message: String(error) } }),
  );
}
