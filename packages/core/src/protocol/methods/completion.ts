import { JsonRpcError } from '../../jsonrpc/index.js';
import { complete } from '../../registry/index.js';
import { ErrorCode } from '../error-codes.js';
import type { MethodSpec } from '../server-core.js';

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}

/** `completion/complete` for prompt arguments (`ref/prompt`) and template variables (`ref/resource`). */
export const completionComplete: MethodSpec = {
  async handle(params, _record, { core }) {
    const ref = params?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    const argument = params?.argument as { name?: unknown; value?: unknown } | undefined;
    if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
      throw invalid('completion/complete needs argument.name and argument.value (strings)');
    }
    const context =
      (params?.context as { arguments?: Record<string, string> } | undefined)?.arguments ?? {};
    let completers;
    if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = core.registry.prompt(ref.name);
      if (!prompt) throw invalid(`unknown prompt: ${ref.name}`);
      completers = prompt.completers;
    } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = core.registry.templates.find((t) => t.uriTemplate === ref.uri);
      if (!template) {
        // A static resource has no variables: nothing to complete.
        if (core.registry.resource(ref.uri))
          return { completion: { values: [], total: 0, hasMore: false } };
        throw invalid(`unknown resource template: ${ref.uri}`);
      }
      completers = template.completers;
    } else {
      throw invalid('ref must be {type: "ref/prompt", name} or {type: "ref/resource", uri}');
    }
    return { completion: await complete(completers.get(argument.name), argument.value, context) };
  },
};
