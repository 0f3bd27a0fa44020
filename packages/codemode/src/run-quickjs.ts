import quickjsVariant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { ScriptHost, ScriptOutcome } from '@mcp-fw/core';

/** A compiled `WebAssembly.Module` (the lib settings here do not declare WebAssembly). */
export type CompiledWasm = object;

/** The limits one script runs under. */
export interface ScriptLimits {
  readonly timeoutMs: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
}

// One QuickJS module per worker, instantiated from the WebAssembly module the main thread
// compiled once; every script gets its own runtime (heap, limits, globals) inside it.
let module: Promise<QuickJSWASMModule> | undefined;
// The package's types are CommonJS-shaped; under import its default export is the variant.
const variant = quickjsVariant as unknown as Parameters<typeof newVariant>[0];
const loadModule = (wasmModule: CompiledWasm) =>
  (module ??= newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmModule: wasmModule as never }) as never,
  ));

// Runs first in each context: binds the host functions into `tools` and `console`, then deletes
// them from the global object, so the script reaches the host through these wrappers only —
// strings in, strings out (JSON), never a host object.
const BOOTSTRAP = `(() => {
  const call = globalThis.__host_call, log = globalThis.__host_log;
  const names = JSON.parse(globalThis.__host_names);
  delete globalThis.__host_call; delete globalThis.__host_log; delete globalThis.__host_names;
  const tools = Object.create(null);
  for (const name of names)
    tools[name] = async (args) => JSON.parse(await call(name, JSON.stringify(args === undefined ? {} : args)));
  const show = (v) => { if (typeof v === 'string') return v; try { return JSON.stringify(v) ?? String(v); } catch { return String(v); } };
  const print = (...values) => log(values.map(show).join(' '));
  const console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
  Object.defineProperty(globalThis, 'tools', { value: Object.freeze(tools) });
  Object.defineProperty(globalThis, 'console', { value: console });
})();`;

/** Runs `code` in a fresh QuickJS runtime with `limits`, `host` its only way out. */
export async function runQuickJs(
  wasmModule: CompiledWasm,
  code: string,
  host: ScriptHost,
  limits: ScriptLimits,
): Promise<ScriptOutcome> {
  return runScript(await loadModule(wasmModule), code, host, limits);
}

async function runScript(
  quickjs: QuickJSWASMModule,
  code: string,
  host: ScriptHost,
  limits: ScriptLimits,
): Promise<ScriptOutcome> {
  const deadline = Date.now() + limits.timeoutMs;
  let interrupted = false;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) interrupted = true;
    return interrupted || host.stopped;
  });
  const ctx = runtime.newContext();
  let alive = true;
  const deferreds = new Set<QuickJSDeferredPromise>();
  let wake: () => void = () => {};
  const handles: QuickJSHandle[] = [];
  try {
    const call = ctx.newFunction('call', (nameHandle, argsHandle) => {
      const name = ctx.getString(nameHandle);
      const args = ctx.getString(argsHandle);
      const deferred = ctx.newPromise();
      deferreds.add(deferred);
      const settle = (fn: () => void) => {
        // A call that settles after the script ended finds its context gone: nothing to tell.
        if (alive) fn();
        deferreds.delete(deferred);
        if (alive) deferred.dispose();
        wake();
      };
      Promise.resolve()
        .then(() => host.call(name, JSON.parse(args)))
        .then(
          (value) =>
            settle(() => {
              const text = ctx.newString(JSON.stringify(value ?? null));
              deferred.resolve(text);
              text.dispose();
            }),
          (error: unknown) =>
            settle(() => {
              const err = ctx.newError(error instanceof Error ? error.message : String(error));
              deferred.reject(err);
              err.dispose();
            }),
        );
      return deferred.handle;
    });
    const log = ctx.newFunction('log', (line) => {
      try {
        host.log(ctx.getString(line));
      } catch (error) {
        return { error: ctx.newError((error as Error).message) };
      }
      return undefined;
    });
    const names = ctx.newString(JSON.stringify(host.tools));
    handles.push(call, log, names);
    ctx.setProp(ctx.global, '__host_call', call);
    ctx.setProp(ctx.global, '__host_log', log);
    ctx.setProp(ctx.global, '__host_names', names);
    const boot = ctx.evalCode(BOOTSTRAP, 'bootstrap.js');
    if (boot.error) {
      const message = describe(ctx, boot.error);
      boot.error.dispose();
      return { ok: false, reason: 'error', message: `the sandbox did not start (${message})` };
    }
    boot.value.dispose();
    const started = ctx.evalCode(
      `(async () => {\n${code}\n})().then((value) => value === undefined ? undefined : JSON.stringify(value))`,
      'script.js',
    );
    if (started.error) {
      const outcome = failure(ctx, started.error, interrupted);
      started.error.dispose();
      return outcome;
    }
    const promise = started.value;
    handles.push(promise);
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const outcome = failure(ctx, jobs.error, interrupted);
        jobs.error.dispose();
        return outcome;
      }
      const state = ctx.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        const value = ctx.dump(state.value) as unknown;
        state.value.dispose();
        return { ok: true, json: typeof value === 'string' ? value : undefined };
      }
      if (state.type === 'rejected') {
        const outcome = failure(ctx, state.error, interrupted);
        state.error.dispose();
        return outcome;
      }
      if (interrupted || Date.now() > deadline) return timeout();
      if (deferreds.size === 0 && !runtime.hasPendingJob())
        return {
          ok: false,
          reason: 'error',
          message:
            'the script awaits a promise that never settles (there are no timers or events in the sandbox)',
        };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    alive = false;
    for (const deferred of deferreds) deferred.dispose();
    for (const handle of handles) if (handle.alive) handle.dispose();
    ctx.dispose();
    runtime.dispose();
  }
}

const timeout = (): ScriptOutcome => ({ ok: false, reason: 'timeout', message: 'timed out' });

/** What a thrown value says: `Name: message` and the script line, for the model to fix. */
function describe(ctx: QuickJSContext, handle: QuickJSHandle): string {
  const error = ctx.dump(handle) as unknown;
  if (error && typeof error === 'object' && 'message' in error) {
    const { name, message, stack } = error as { name?: string; message?: string; stack?: string };
    const at = /script\.js:(\d+)/.exec(stack ?? '')?.[1];
    // Line 1 of script.js is the wrapper's; the script's own lines start at 2.
    return `${name ?? 'Error'}: ${message}${at ? ` (line ${Number(at) - 1})` : ''}`;
  }
  return `threw ${JSON.stringify(error) ?? String(error)}`;
}

function failure(ctx: QuickJSContext, handle: QuickJSHandle, interrupted: boolean): ScriptOutcome {
  if (interrupted) return timeout();
  const message = describe(ctx, handle);
  if (/out of memory/i.test(message)) return { ok: false, reason: 'memory', message };
  return { ok: false, reason: 'error', message };
}
