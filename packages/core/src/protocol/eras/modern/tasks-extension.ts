import { JsonRpcError } from '../../../jsonrpc/index.js';
import type { Registry } from '../../../registry/index.js';
import { hasCapability, MissingCapabilityError } from '../../client-capability.js';
import { ErrorCode } from '../../error-codes.js';
import type { RequestRecord } from '../../request-record.js';
import type { MethodSpec, Scope } from '../../server-core.js';
import { ownsTask, taskOwner, type TaskSnapshot } from '../../tasks/index.js';
import type { EraTasks } from '../era.js';

/** The tasks extension's identifier, in capabilities and in `-32021` data. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const EXTENSION_PATH = ['extensions', TASKS_EXTENSION] as const;
const REQUIRED = { extensions: { [TASKS_EXTENSION]: {} } };

/** Whether this request declares the tasks extension in its envelope's client capabilities. */
function declares(record: RequestRecord): boolean {
  return hasCapability(record, EXTENSION_PATH);
}

function missing(what: string, record: RequestRecord): MissingCapabilityError {
  const client = record.clientInfo.name ? ` (${record.clientInfo.name})` : '';
  return new MissingCapabilityError(
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"], which this request${client} did not declare; declare it in the request's _meta client capabilities`,
    REQUIRED,
  );
}

/** `capabilities` with the tasks extension declared (what a client of the extension sends). */
export function withTasksExtension(capabilities: Record<string, unknown>): Record<string, unknown> {
  const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** Whether any tool may run as a task, so the extension is worth advertising. */
export function servesTasks(registry: Registry): boolean {
  return registry.tools.some((tool) => tool.task.mode !== 'forbidden');
}

/** The `capabilities.extensions` of `server/discover`, when some tool runs as a task. */
export function tasksCapability(registry: Registry): Record<string, unknown> | undefined {
  return servesTasks(registry) ? { [TASKS_EXTENSION]: {} } : undefined;
}

/**
 * Under the extension the server decides (the client sends no hint, and a legacy `params.task`
 * is ignored): a tool that allows tasks gets one whenever the request declares the extension.
 * A tool that requires one refuses a request that does not, with -32021.
 */
export const MODERN_TASKS: EraTasks = {
  decide(task, record) {
    if (task.mode === 'forbidden') return false;
    if (declares(record)) return true;
    if (task.mode === 'required') throw missing('This tool runs only as a task and', record);
    return false;
  },
  created: (snapshot) => ({ resultType: 'task', ...snapshot }),
};

function taskIdOf(params: Record<string, unknown> | undefined, method: string): string {
  const id = params?.taskId;
  if (typeof id !== 'string' || id === '')
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: ${method} needs params.taskId (the id a tools/call answered with resultType "task")`,
    );
  return id;
}

function gate(record: RequestRecord, method: string): void {
  if (!declares(record)) throw missing(method, record);
}

/** `tasks/get`: the task as it is now (a DetailedTask: result, error or questions inlined). */
export const tasksGet: MethodSpec = {
  handle(params, record, scope): Promise<TaskSnapshot> {
    gate(record, 'tasks/get');
    return scope.core.tasks.get(taskOwner(record, scope), taskIdOf(params, 'tasks/get'));
  },
};

/** `tasks/update`: answers to the task's questions; an empty acknowledgement. */
export const tasksUpdate: MethodSpec = {
  async handle(params, record, scope) {
    gate(record, 'tasks/update');
    const id = taskIdOf(params, 'tasks/update');
    const responses = params?.inputResponses;
    if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        "Invalid params: tasks/update needs params.inputResponses, an object of answers keyed like the task's inputRequests",
      );
    await scope.core.tasks.update(
      taskOwner(record, scope),
      id,
      responses as Record<string, unknown>,
    );
    return {};
  },
};

/** `tasks/cancel`: an empty acknowledgement, also for a task that already ended. */
export const tasksCancel: MethodSpec = {
  async handle(params, record, scope) {
    gate(record, 'tasks/cancel');
    await scope.core.tasks.cancel(taskOwner(record, scope), taskIdOf(params, 'tasks/cancel'));
    return {};
  },
};

/**
 * The `taskIds` of a `subscriptions/listen` filter that this caller may follow: its own tasks
 * that exist now (others' and unknown ids are left out of the acknowledgement, as a filter's
 * unserved parts are). -32021 when the request does not declare the extension; at most `max`.
 */
export function followedTaskIds(
  requested: unknown,
  record: RequestRecord,
  scope: Scope,
  max: number,
): Promise<string[]> | undefined {
  if (!Array.isArray(requested)) return undefined;
  if (!declares(record)) throw missing('subscriptions/listen with notifications.taskIds', record);
  if (requested.length > max)
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: notifications.taskIds lists ${requested.length} tasks; a listen stream may follow at most ${max} (limits.maxSubscriptionsPerStream); spread them over several streams`,
    );
  const owner = taskOwner(record, scope);
  return (async () => {
    const ids = new Set<string>();
    for (const id of new Set(requested)) {
      try {
        await scope.core.tasks.get(owner, id);
        ids.add(id as string);
      } catch {
        // Not this caller's task, or none: not followed.
      }
    }
    return [...ids];
  })();
}

/**
 * The `taskChanged` of a listen stream's hub member: calls `send` with each status change of
 * the followed tasks, wherever they run (the hub brings other instances' changes).
 */
export function followTasks(
  record: RequestRecord,
  scope: Scope,
  ids: readonly string[],
  send: (task: TaskSnapshot) => void,
): (owner: string, snapshot: TaskSnapshot) => void {
  const owner = taskOwner(record, scope);
  const followed = new Set(ids);
  return (recorded, snapshot) => {
    if (followed.has(snapshot.taskId) && ownsTask(owner, recorded)) send(snapshot);
  };
}
