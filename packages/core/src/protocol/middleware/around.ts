import type { MethodSpec } from '../server-core.js';

/** Methods that run their middleware themselves, inside the call (once per logical call). */
const CALLS = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * `spec` with the server's middleware around it. Calls of members run the chain inside the
 * call, where the member is known and a 2026-07-28 call spanning several input rounds is one
 * call; here they only get it for a refusal before any member is reached (an unknown tool, a
 * bad `requestState`), so that middleware sees those requests too.
 */
export function aroundMethod(method: string, spec: MethodSpec): MethodSpec {
  if (CALLS.has(method)) {
    return {
      ...spec,
      handle(params, record, scope) {
        try {
          return spec.handle(params, record, scope);
        } catch (error) {
          const pipeline = scope.core.middleware;
          if (pipeline.idle) throw error;
          return pipeline.run(pipeline.steps(method), { method, params, record, scope }, () => {
            throw error;
          });
        }
      },
    };
  }
  return {
    ...spec,
    handle(params, record, scope) {
      const pipeline = scope.core.middleware;
      if (pipeline.idle) return spec.handle(params, record, scope);
      return pipeline.run(pipeline.steps(method), { method, params, record, scope }, () =>
        spec.handle(params, record, scope),
      );
    },
  };
}
