import { JsonRpcError } from '../../jsonrpc/index.js';
import {
  appOnly,
  rendersViews,
  invokeTool,
  isThenable,
  type CallToolResult,
  type MaybePromise,
  type ToolDefinition,
} from '../../registry/index.js';
import { callResultForRevision } from '../call-result.js';
import { Context } from '../context.js';
import { ErrorCode } from '../error-codes.js';
import type { GuardedCall } from '../guards/index.js';
import type { InputRun } from '../input/input-run.js';
import { featuresOf, type RevisionFeatures } from '../eras/revisions.js';
import type { RequestRecord } from '../request-record.js';
import type { MethodSpec, Scope } from '../server-core.js';
import { visiblePage } from '../list-visibility.js';
import { asToolError, memberInfo } from '../middleware/index.js';
import { toolForRevision } from '../wire-shapes.js';
import { TaskRun, taskRecordOwner } from '../tasks/index.js';
import type { EraTasks } from '../eras/era.js';

export const toolsList: MethodSpec = {
  handle(params, record, { core }) {
    const list = { name: 'tools', kind: 'tool' as const, nameOf: (t: { name: string }) => t.name };
    // A tool only views call (MCP Apps visibility ['app']) means nothing to a client that
    // renders no views: its model would see a tool it should never call. Calls stay allowed.
    const hidden = rendersViews(record.clientCapabilities) ? undefined : appOnly;
    return visiblePage(
      list,
      () => core.registry.tools,
      toolForRevision,
      params,
      record,
      core,
      hidden,
    );
  },
};

export const toolsCall: MethodSpec = {
  // Not async: a call whose validation and handler are synchronous is answered without a
  // promise (see registry/maybe-async.ts); a failure before the handler throws synchronously.
  handle(params, record, scope) {
    const name = params?.name;
    if (typeof name !== 'string') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'Invalid params: tools/call needs params.name (a string)',
      );
    }
    const registry = scope.core.registry;
    const found = record.preflightTool;
    // The HTTP preflight of a 2026-07-28 call already asked the registry being served (a relay's
    // lookup is another object) for this name: its answer stands.
    const tool =
      found?.lookup === registry && found.name === name
        ? (found.tool as ToolDefinition | undefined)
        : registry.tool(name);
    if (!tool) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const features = featuresOf(record.protocolVersion);
    const execute = (run?: InputRun): unknown => {
      const pipeline = scope.core.middleware;
      let result: MaybePromise<CallToolResult>;
      try {
        result =
          pipeline.idle && tool.middleware.length === 0
            ? invoke(tool, { record, scope, run }, params?.arguments)
            : (pipeline
                .run(
                  pipeline.memberSteps('tools/call', tool.middleware),
                  {
                    method: 'tools/call',
                    params,
                    record,
                    scope,
                    run,
                    member: memberInfo('tool', tool),
                    arguments: params?.arguments,
                  },
                  (ctx) => invoke(tool, { record, scope, run }, ctx.arguments, ctx.outboundMeta),
                )
                .catch((error: unknown) => {
                  throw asToolError(name, error);
                }) as Promise<CallToolResult>);
      } catch (error) {
        return inBand(error, features, record, scope, run);
      }
      return isThenable(result)
        ? result.then(
            (value) => callResultForRevision(value, features),
            (error: unknown) => inBand(error, features, record, scope, run),
          )
        : callResultForRevision(result, features);
    };
    // Most tools never run as tasks and most calls ask for none: skip the era's decision then.
    const mayBeTask = tool.task.mode !== 'forbidden' || params?.task !== undefined;
    if (mayBeTask && record.era.tasks?.decide(tool.task, record, params)) {
      // A deferred tool waits for ctx.runAsTask() only where a call can ask in rounds first.
      if (!tool.task.deferred || !record.era.asksInRounds)
        return startTask(tool, record, scope, execute);
      return scope.core.inputs.call(params, record, deferrable(tool, scope, execute), scope);
    }
    return scope.core.inputs.call(params, record, execute, scope);
  },
};

/**
 * The call of a `deferred` task tool: it runs in its request (input rounds and all) until the
 * handler calls `ctx.runAsTask()`; then the request is answered with a new task, whose work is
 * the rest of the same invocation.
 */
function deferrable(
  tool: ToolDefinition,
  scope: Scope,
  execute: (run?: InputRun) => unknown,
): (run?: InputRun) => unknown {
  return (run) => {
    if (!run) return execute();
    let finish!: (value: unknown) => void;
    let failure!: (error: unknown) => void;
    const outcome = new Promise<unknown>((resolve, reject) => {
      finish = resolve;
      failure = reject;
    });
    run.detacher = () =>
      new Promise<boolean>((running, refused) => {
        const current = run.record;
        const started = scope.core.tasks.start(
          taskRecordOwner(current, scope),
          { ttlMs: tool.task.ttlMs, pollIntervalMs: tool.task.pollIntervalMs },
          async (work) => {
            run.bindTask(work);
            running(true);
            try {
              return { result: await outcome };
            } catch (error) {
              return { error: current.era.mapError(error, scope.errors) };
            }
          },
        );
        started.then(
          (snapshot) => run.detach((current.era.tasks as EraTasks).created(snapshot)),
          refused,
        );
      });
    let value: unknown;
    try {
      value = execute(run);
    } catch (error) {
      failure(error);
      throw error;
    }
    Promise.resolve(value).then(finish, failure);
    return value;
  };
}

/**
 * Runs the call as a task: the same handler, middleware and guardrails, detached from the
 * request, which is answered at once with the task. Questions the handler asks go through the
 * task; a tool error completes it with its `isError` result, a protocol error fails it.
 */
function startTask(
  tool: ToolDefinition,
  record: RequestRecord,
  scope: Scope,
  execute: (run?: InputRun) => unknown,
): unknown {
  const { tasks } = scope.core;
  const era = record.era.tasks as EraTasks;
  const started = tasks.start(
    taskRecordOwner(record, scope),
    { ttlMs: tool.task.ttlMs, pollIntervalMs: tool.task.pollIntervalMs },
    async (work) => {
      try {
        return { result: await execute(new TaskRun(record, scope.core.inputs, work)) };
      } catch (error) {
        return { error: record.era.mapError(error, scope.errors) };
      }
    },
    era.relay?.(record, scope),
  );
  return started.then((snapshot) => era.created(snapshot));
}

/** Runs the tool under the guardrails with `args` (as middleware left them). */
function invoke(
  tool: ToolDefinition,
  at: { record: RequestRecord; scope: Scope; run: InputRun | undefined },
  args: unknown,
  outboundMeta?: object,
): MaybePromise<CallToolResult> {
  const { record, scope } = at;
  const call: GuardedCall = {
    kind: 'tool',
    name: tool.name,
    // A task's handler may run as long as the task lives, unless the tool sets its own timeout.
    limits:
      at.run?.detached && tool.limits.timeoutMs === undefined
        ? { ...tool.limits, timeoutMs: tool.task.ttlMs }
        : tool.limits,
    args,
    record,
    scope,
    run: at.run,
    deadline: undefined,
    outboundMeta,
  };
  return scope.core.guards.run(call, () =>
    invokeTool(tool, args, new Context(record, scope, call)),
  );
}

/** A failed call as the revision's in-band `isError` result, or rethrown as a protocol error. */
function inBand(
  error: unknown,
  features: RevisionFeatures,
  record: RequestRecord,
  scope: Scope,
  run: InputRun | undefined,
): unknown {
  // A call its client cancelled (the request, or the task it runs as) fails quietly.
  const quiet = record.request.aborted || (run?.detached === true && run.signal.aborted);
  const result = record.era.toolError(error, { features, policy: scope.errors, quiet });
  if (!result) throw error;
  return result;
}
