// Which stateless (2026-07-28) requests belong to the tasks extension, and so to the Durable
// Object that runs the Worker's tasks. A task's work outlives the request that started it, and
// a Worker isolate cancels what a request left running once its response is sent (timers
// included), and refuses to resume one request's promise from another (an answer from
// `tasks/update`, a cancel). A Durable Object keeps running between requests while it is in
// memory, and every request reaching it may resume what another started: so the call that may
// start a task, and every request naming a task, go to one object that holds them all.

import type { ToolLookup } from '@mcp-fw/core/transport';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * The name of the object that runs a Worker's tasks, in the `sessions` namespace (its id comes
 * from `idFromName`, so every isolate reaches the same one).
 */
export const TASKS_OBJECT = 'mcp-fw:tasks';

function declaresTasks(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const capabilities = meta?.[CLIENT_CAPABILITIES] as { extensions?: unknown } | undefined;
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/**
 * Whether `message` is the tasks object's: a `tools/call` that declares the tasks extension for
 * a tool that may run as a task (when `tools` says; a lookup that does not tell goes there too),
 * a `tasks/get`, `tasks/update` or `tasks/cancel`, or a `subscriptions/listen` that follows tasks.
 * Everything else stays in the isolate, where no request needs another's state.
 */
export function belongsToTasks(message: Record<string, unknown>, tools: ToolLookup): boolean {
  const { method } = message;
  const params =
    typeof message.params === 'object' && message.params !== null
      ? (message.params as Record<string, unknown>)
      : undefined;
  if (typeof method !== 'string') return false;
  if (TASK_METHODS.has(method)) return true;
  if (method === 'subscriptions/listen') {
    const notifications = params?.notifications as { taskIds?: unknown } | undefined;
    return Array.isArray(notifications?.taskIds);
  }
  if (method !== 'tools/call' || !declaresTasks(params) || typeof params?.name !== 'string')
    return false;
  const tool = tools.tool(params.name) as { task?: { mode?: unknown } } | undefined;
  // An unknown tool is refused alike wherever it is asked for: in the isolate, at no hop's cost.
  if (tool === undefined) return false;
  return tool.task?.mode !== 'forbidden';
}
