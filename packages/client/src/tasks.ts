import { JsonRpcCode, JsonRpcError } from '@mcp-fw/core/transport';
import { answerInput } from './input.js';
import type { Session } from './session.js';
import type { CallOptions, CallToolResult, InputHandlers, TaskStatus } from './types.js';

// Tasks in both eras, followed by callTool until the tool's result. 2025-11-25 asks for a task
// with `params.task`, waits on `tasks/result` (the task's questions arrive as ordinary requests)
// and reads `tasks/get` for the status; the 2026-07-28 tasks extension answers `resultType:
// "task"`, inlines result, error and questions in `tasks/get`, and takes answers by
// `tasks/update`. Both cancel with `tasks/cancel`.

/** The tasks extension's identifier (2026-07-28), declared in the envelope's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
// Bounds on the server's poll interval: no busy loop, no minute of silence either.
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 30_000;

/** The task a `tools/call` answered with, when it did (either era's shape); else undefined. */
export function createdTask(result: unknown): Record<string, unknown> | undefined {
  const r = result as Record<string, unknown> | undefined;
  if (r?.resultType === 'task' && typeof r.taskId === 'string') return r;
  const legacy = r?.task as Record<string, unknown> | undefined;
  if (r && !('content' in r) && typeof legacy?.taskId === 'string') return legacy;
  return undefined;
}

/**
 * Follows a task to the tool's result: each status change reaches `options.onTask`; an abort of
 * `options.signal` cancels the task on the server (`tasks/cancel`) and rejects with the reason.
 * A failed task rejects with its JSON-RPC error; a task cancelled elsewhere with a
 * `JsonRpcError` saying so.
 */
export async function followTask(
  session: Session,
  task: Record<string, unknown>,
  handlers: InputHandlers,
  options: CallOptions,
): Promise<CallToolResult> {
  const taskId = String(task.taskId);
  const signal = options.signal;
  const report = reporter(options);
  const cancel = () => {
    // The call rejects at once; the server is told, and whatever it answers changes nothing.
    session
      .request('tasks/cancel', { taskId }, { timeoutMs: options.timeoutMs })
      .catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    if (session.era === 'modern')
      return await followModern(session, task, handlers, options, report);
    report(task);
    return await followLegacy(session, task, options, report);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** 2026-07-28: polls `tasks/get`, answering the task's questions through `tasks/update`. */
async function followModern(
  session: Session,
  first: Record<string, unknown>,
  handlers: InputHandlers,
  options: CallOptions,
  report: (task: Record<string, unknown>) => void,
): Promise<CallToolResult> {
  const taskId = String(first.taskId);
  const answered = new Set<string>();
  let task = first;
  for (;;) {
    report(task);
    if (TERMINAL.has(String(task.status))) return ended(taskId, task);
    const questions = (task.inputRequests ?? {}) as Record<
      string,
      { method?: unknown; params?: unknown }
    >;
    const open = Object.entries(questions).filter(([key]) => !answered.has(key));
    if (task.status === 'input_required' && open.length > 0) {
      // Asked together, answered together: a handler that asks someone else (a proxy asking its
      // own caller) shows every open question at once, not one after another.
      for (const [key] of open) answered.add(key);
      const answers = await Promise.all(
        open.map(([key, question]) =>
          answerInput(
            handlers,
            String(question?.method),
            question?.params as Record<string, unknown> | undefined,
            { era: 'modern', signal: options.signal, key },
          ),
        ),
      );
      const inputResponses = Object.fromEntries(open.map(([key], i) => [key, answers[i]]));
      await session.request('tasks/update', { taskId, inputResponses }, callOptions(options));
    } else await pause(pollMs(task.pollIntervalMs), options.signal);
    task = await session.request('tasks/get', { taskId }, callOptions(options));
  }
}

/**
 * 2025-11-25: waits on `tasks/result` (what the call would have answered), reading `tasks/get`
 * at the task's poll interval meanwhile when someone wants the status.
 */
async function followLegacy(
  session: Session,
  first: Record<string, unknown>,
  options: CallOptions,
  report: (task: Record<string, unknown>) => void,
): Promise<CallToolResult> {
  const taskId = String(first.taskId);
  const result = session.request<CallToolResult>(
    'tasks/result',
    { taskId },
    { signal: options.signal, timeoutMs: Number.POSITIVE_INFINITY },
  );
  let done = false;
  const polling = options.onTask
    ? (async () => {
        const interval = pollMs(first.pollInterval);
        while (!done) {
          await pause(interval, options.signal).catch(() => (done = true));
          if (done) return;
          const task = await session
            .request<Record<string, unknown>>('tasks/get', { taskId }, callOptions(options))
            .catch(() => undefined);
          if (!task || done) return;
          report(task);
          if (TERMINAL.has(String(task.status))) return;
        }
      })()
    : Promise.resolve();
  const listening = session.listen((method, params) => {
    if (method === 'notifications/tasks/status' && params.taskId === taskId) report(params);
  });
  try {
    const value = await result;
    report({ taskId, status: 'completed' });
    return untagged(value);
  } catch (error) {
    if (error instanceof JsonRpcError && !options.signal?.aborted) {
      // The end as the server tells it (failed or cancelled), for onTask.
      const task = await session
        .request<Record<string, unknown>>('tasks/get', { taskId }, callOptions(options))
        .catch(() => undefined);
      if (task) report(task);
    }
    throw error;
  } finally {
    done = true;
    listening();
    await polling;
  }
}

function ended(taskId: string, task: Record<string, unknown>): CallToolResult {
  if (task.status === 'completed') return (task.result ?? { content: [] }) as CallToolResult;
  const error = task.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (task.status === 'failed' && error && typeof error.code === 'number')
    throw new JsonRpcError(error.code, String(error.message), error.data);
  throw new JsonRpcError(
    JsonRpcCode.InternalError,
    `Task ${taskId} ended ${String(task.status)}${task.statusMessage ? ` (${String(task.statusMessage)})` : ''}, so the tool has no result`,
  );
}

/** Calls `onTask` once per change of status or status message. */
function reporter(options: CallOptions): (task: Record<string, unknown>) => void {
  let last = '';
  let ended = false;
  return (task) => {
    // A task that ended is reported once (a poll and the result may both tell of its end).
    if (!options.onTask || ended) return;
    const status = String(task.status) as TaskStatus;
    const statusMessage = typeof task.statusMessage === 'string' ? task.statusMessage : undefined;
    const key = `${status}\u0000${statusMessage ?? ''}`;
    if (key === last) return;
    last = key;
    ended = TERMINAL.has(status);
    options.onTask({
      taskId: String(task.taskId),
      status,
      ...(statusMessage === undefined ? {} : { statusMessage }),
    });
  };
}

function callOptions(options: CallOptions): CallOptions {
  return { signal: options.signal, timeoutMs: options.timeoutMs };
}

function pollMs(value: unknown): number {
  const ms = typeof value === 'number' && Number.isFinite(value) ? value : 1000;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms));
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The result without the task's tag (2025-11-25), which is protocol, not the tool's answer. */
function untagged(result: CallToolResult): CallToolResult {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta || !(RELATED_TASK in meta)) return result;
  const { [RELATED_TASK]: _related, ...rest } = meta;
  const { _meta, ...payload } = result;
  return Object.keys(rest).length > 0 ? { ...payload, _meta: rest } : payload;
}
