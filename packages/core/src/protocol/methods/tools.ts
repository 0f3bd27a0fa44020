import { JsonRpcError } from '../../jsonrpc/index.js';
import { invokeTool, ToolExecutionError, UserError } from '../../registry/index.js';
import { callResultForRevision } from '../call-result.js';
import { Context } from '../context.js';
import { ErrorCode } from '../error-codes.js';
import { toolErrorResult } from '../error-mapping.js';
import type { GuardedCall } from '../guards/index.js';
import type { InputRun } from '../input/input-run.js';
import { featuresOf } from '../revisions.js';
import type { MethodSpec } from '../server-core.js';
import { toolForRevision } from '../wire-shapes.js';

export const toolsList: MethodSpec = {
  handle(params, record, { core }) {
    const registry = core.registry;
    const features = featuresOf(record.protocolVersion);
    const key = { list: 'tools', revision: record.protocolVersion, cursor: params?.cursor, pageSize: core.pageSize };
    return core.lists.get(registry, key, () => registry.tools, (t) => toolForRevision(t, features));
  },
};

export const toolsCall: MethodSpec = {
  async handle(params, record, scope) {
    const name = params?.name;
    if (typeof name !== 'string') {
      throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: tools/call needs params.name (a string)');
    }
    const tool = scope.core.registry.tool(name);
    if (!tool) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const features = featuresOf(record.protocolVersion);
    const args = params?.arguments;
    const execute = async (run?: InputRun) => {
      const call: GuardedCall = { kind: 'tool', name, limits: tool.limits, args, record, scope, run, deadline: undefined };
      try {
        const result = await scope.core.guards.run(call, () => invokeTool(tool, args, new Context(record, scope, call)));
        return callResultForRevision(result, features);
      } catch (error) {
        const inBand = toolErrorResult(error, features, record.era);
        if (!inBand) throw error;
        if (error instanceof ToolExecutionError && !(error.cause instanceof UserError) && !record.request.aborted) {
          scope.core.logger.error(`tool ${name} threw`, error.cause);
        }
        return inBand;
      }
    };
    return scope.core.inputs.call(params, record, execute);
  },
};
