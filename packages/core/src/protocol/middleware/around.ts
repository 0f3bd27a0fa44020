import type { MethodSpec } from '../server-core.js';

/** Methods that run their middleware themselves, inside the call (once per logical call). */
const CALLS = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * `spec` with the server's middleware around it. Calls of members are left as they are: they
 * run the chain inside the call, where the member is known and a 2026-07-28 call spanning
 * several input rounds is one call.
 */
export function aroundMethod(method: string, spec: MethodSpec): MethodSpec {
  if (CALLS.has(method)) return spec;
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
