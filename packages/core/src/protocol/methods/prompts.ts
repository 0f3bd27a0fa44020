import { visiblePage } from '../list-visibility.js';
import { JsonRpcError } from '../../jsonrpc/index.js';
import { getPrompt } from '../../registry/index.js';
import { Context } from '../context.js';
import { ErrorCode } from '../error-codes.js';
import type { GuardedCall } from '../guards/index.js';
import type { InputRun } from '../input/input-run.js';
import { memberInfo } from '../middleware/index.js';
import { featuresOf } from '../eras/revisions.js';
import type { MethodSpec } from '../server-core.js';
import { promptForRevision } from '../wire-shapes.js';
import { contentForRevision } from '../call-result.js';

export const promptsList: MethodSpec = {
  handle(params, record, { core }) {
    const list = {
      name: 'prompts',
      kind: 'prompt' as const,
      nameOf: (p: { name: string }) => p.name,
    };
    return visiblePage(list, () => core.registry.prompts, promptForRevision, params, record, core);
  },
};

export const promptsGet: MethodSpec = {
  handle(params, record, scope) {
    const name = params?.name;
    if (typeof name !== 'string') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'Invalid params: prompts/get needs params.name (a string)',
      );
    }
    const prompt = scope.core.registry.prompt(name);
    if (!prompt) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    const sent = params?.arguments;
    if (sent !== undefined && (typeof sent !== 'object' || sent === null || Array.isArray(sent))) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'Invalid params: prompts/get arguments must be an object',
      );
    }
    const features = featuresOf(record.protocolVersion);
    const invoke = (run: InputRun | undefined, args: unknown, outboundMeta?: object) => {
      const call: GuardedCall = {
        kind: 'prompt',
        name,
        limits: prompt.limits,
        args,
        record,
        scope,
        run,
        deadline: undefined,
        outboundMeta,
      };
      return scope.core.guards.run(call, () =>
        getPrompt(prompt, args, new Context(record, scope, call)),
      );
    };
    const execute = async (run?: InputRun) => {
      const pipeline = scope.core.middleware;
      const result =
        pipeline.idle && prompt.middleware.length === 0
          ? await invoke(run, sent)
          : ((await pipeline.run(
              pipeline.memberSteps('prompts/get', prompt.middleware),
              {
                method: 'prompts/get',
                params,
                record,
                scope,
                run,
                member: memberInfo('prompt', prompt),
                arguments: sent,
              },
              (ctx) => invoke(run, ctx.arguments, ctx.outboundMeta),
            )) as Awaited<ReturnType<typeof invoke>>);
      return {
        ...result,
        messages: result.messages.map((m) => ({
          ...m,
          content: contentForRevision(m.content, features),
        })),
      };
    };
    return scope.core.inputs.call(params, record, execute, scope);
  },
};
