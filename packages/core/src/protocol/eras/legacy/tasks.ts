import { JsonRpcError } from '../../../jsonrpc/index.js';
import { base64UrlOf, fromBase64Url } from '../../../registry/index.js';
import { ErrorCode } from '../../error-codes.js';
import type { RequestRecord } from '../../request-record.js';
import type { MethodSpec, Scope } from '../../server-core.js';
import { TERMINAL, taskOwner, type TaskRelay, type TaskSnapshot } from '../../tasks/index.js';
import type { EraTasks } from '../era.js';
import { featuresOf } from '../revisions.js';
import { askOnChannel } from './ask.js';

// The experimental tasks of 2025-11-25 core (basic/utilities/tasks): the client asks for a task
// with `params.task`, reads it with tasks/get, waits for its result with tasks/result, lists its
// own with tasks/list and cancels with tasks/cancel. Older revisions have none of it.

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Whether the request's revision has core tasks (2025-11-25). */
function hasTasks(record: RequestRecord): boolean {
  return featuresOf(record.protocolVersion).coreTasks;
}

/** `capabilities.tasks` of the initialize result, when some tool runs as a task. */
export function legacyTasksCapability(
  revision: string,
  servesTasks: boolean,
): Record<string, unknown> | undefined {
  if (!servesTasks || !featuresOf(revision).coreTasks) return undefined;
  return { list: {}, cancel: {}, requests: { tools: { call: {} } } };
}

/** The 2025-11-25 shape of a task: `ttl` and `pollInterval`, nothing inlined. */
export function legacyTask(snapshot: TaskSnapshot): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: snapshot.taskId,
    status: snapshot.status,
    createdAt: snapshot.createdAt,
    lastUpdatedAt: snapshot.lastUpdatedAt,
    ttl: snapshot.ttlMs,
    pollInterval: snapshot.pollIntervalMs,
  };
  if (snapshot.statusMessage !== undefined) task.statusMessage = snapshot.statusMessage;
  return task;
}

const relatedMeta = (taskId: string) => ({ [RELATED_TASK]: { taskId } });

function notFound(method: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/**
 * The client decides: `params.task` asks for a task. A tool that allows none refuses it, and a
 * tool that requires one refuses a plain call, both with -32601 as the revision says. Before
 * 2025-11-25 `params.task` means nothing and every call runs in its request.
 */
export const LEGACY_TASKS: EraTasks = {
  decide(task, record, params) {
    if (!hasTasks(record)) return false;
    const asked = typeof params?.task === 'object' && params.task !== null;
    if (asked && task.mode === 'forbidden')
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `Method not found: tool ${String(params?.name)} does not run as a task (its execution.taskSupport is "forbidden"); call it without params.task`,
      );
    if (!asked && task.mode === 'required')
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `Method not found: tool ${String(params?.name)} runs only as a task (execution.taskSupport "required"); call it with params.task`,
      );
    return asked;
  },
  created: (snapshot) => ({ task: legacyTask(snapshot) }),
  statusNotification(session, snapshot) {
    const revision = session.handshake?.protocolVersion;
    if (revision === undefined || !featuresOf(revision).coreTasks) return undefined;
    return { method: 'notifications/tasks/status', params: legacyTask(snapshot) };
  },
  relay(record, scope): TaskRelay {
    // The question goes on the session as an ordinary request, tagged with its task.
    return (method, params, taskId, signal) => {
      const p = (params ?? {}) as { _meta?: object };
      return askOnChannel(
        { record, signal },
        scope,
        method,
        { ...p, _meta: { ...p._meta, ...relatedMeta(taskId) } },
        {},
        false,
      );
    };
  },
};

function taskIdOf(params: Record<string, unknown> | undefined, method: string): string {
  const id = params?.taskId;
  if (typeof id !== 'string' || id === '')
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: ${method} needs params.taskId (the id a tools/call with params.task answered)`,
    );
  return id;
}

/** The task methods of 2025-11-25; -32601 under older revisions, as if absent. */
function coreOnly(method: string, handle: MethodSpec['handle']): MethodSpec {
  return {
    handle(params, record, scope) {
      if (!hasTasks(record)) throw notFound(method);
      return handle(params, record, scope);
    },
  };
}

const owner = (record: RequestRecord, scope: Scope) => taskOwner(record, scope);

export const legacyTasksGet = coreOnly('tasks/get', async (params, record, scope) =>
  legacyTask(await scope.core.tasks.get(owner(record, scope), taskIdOf(params, 'tasks/get'))),
);

/** `tasks/result`: waits for the end, then answers exactly what the call would have. */
export const legacyTasksResult = coreOnly('tasks/result', async (params, record, scope) => {
  const id = taskIdOf(params, 'tasks/result');
  const end = await scope.core.tasks.settled(owner(record, scope), id, record.request.signal);
  if (end.status === 'completed') {
    const result = (end.result ?? {}) as { _meta?: object };
    return { ...result, _meta: { ...result._meta, ...relatedMeta(id) } };
  }
  if (end.status === 'failed' && end.error)
    throw new JsonRpcError(end.error.code, end.error.message, end.error.data);
  if (!TERMINAL.has(end.status))
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired');
  throw new JsonRpcError(
    ErrorCode.InvalidParams,
    `Failed to retrieve task result: the task was ${end.status}, so it has no result`,
  );
});

/**
 * `tasks/list`: the caller's tasks a page at a time (`core.pageSize`, at most
 * `limits.tasks.maxTasksPerOwner`), the store's own cursor wrapped like the other lists'.
 */
export const legacyTasksList = coreOnly('tasks/list', async (params, record, scope) => {
  const cursor = decodeTaskCursor(params?.cursor);
  const size = scope.core.pageSize;
  let page: Awaited<ReturnType<Scope['core']['tasks']['list']>>;
  try {
    page = await scope.core.tasks.list(
      owner(record, scope),
      cursor,
      Number.isFinite(size) ? size : undefined,
    );
  } catch (error) {
    if (error instanceof RangeError) throw badCursor();
    throw error;
  }
  const tasks = page.tasks.map(legacyTask);
  return page.next === undefined ? { tasks } : { tasks, nextCursor: encodeTaskCursor(page.next) };
});

const CURSOR_PREFIX = 't:';

function badCursor(): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: unknown or malformed cursor');
}

function encodeTaskCursor(next: string): string {
  return base64UrlOf(`${CURSOR_PREFIX}${next}`);
}

function decodeTaskCursor(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  const text = typeof cursor === 'string' ? fromBase64Url(cursor) : undefined;
  if (text === undefined || !text.startsWith(CURSOR_PREFIX)) throw badCursor();
  return text.slice(CURSOR_PREFIX.length);
}

/** `tasks/cancel`: the cancelled task; a task that already ended is refused (-32602). */
export const legacyTasksCancel = coreOnly('tasks/cancel', async (params, record, scope) => {
  const who = owner(record, scope);
  const id = taskIdOf(params, 'tasks/cancel');
  const current = await scope.core.tasks.get(who, id, 'cancel');
  if (TERMINAL.has(current.status)) throw alreadyEnded(current.status);
  const cancelled = await scope.core.tasks.cancel(who, id);
  // It may have ended on its instance while the cancel was on its way: that end stands.
  if (cancelled.status !== 'cancelled') throw alreadyEnded(cancelled.status);
  return legacyTask(cancelled);
});

function alreadyEnded(status: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `Cannot cancel task: it already ended (${status})`,
  );
}
