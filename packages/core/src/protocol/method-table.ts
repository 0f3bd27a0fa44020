import { JsonRpcError, type InboundRequest } from '../jsonrpc/index.js';
import { ErrorCode } from './error-codes.js';
import { completionComplete } from './methods/completion.js';
import { promptsGet, promptsList } from './methods/prompts.js';
import { resourcesList, resourcesRead, templatesList } from './methods/resources.js';
import { directoryRead, skillsGet, skillsList } from './methods/skills.js';
import { toolsCall, toolsList } from './methods/tools.js';
import { aroundMethod } from './middleware/index.js';
import type { MethodSpec } from './server-core.js';

/**
 * The request methods every era answers with the same handler; each era's table adds its own
 * (the handshake and session methods, or discovery and listen streams).
 */
export const SHARED_METHODS: readonly (readonly [string, MethodSpec])[] = [
  ['tools/list', toolsList],
  ['tools/call', toolsCall],
  ['resources/list', resourcesList],
  ['resources/templates/list', templatesList],
  ['resources/read', resourcesRead],
  ['prompts/list', promptsList],
  ['prompts/get', promptsGet],
  ['completion/complete', completionComplete],
  // The Skills extension; -32601 on a server that serves no skills.
  ['skills/list', skillsList],
  ['skills/get', skillsGet],
  ['resources/directory/read', directoryRead],
];

/** The method serving `request` in `table`, or the -32601 / -32602 that refuses it. */
export function lookupMethod(
  table: ReadonlyMap<string, MethodSpec>,
  request: InboundRequest,
): MethodSpec {
  const method = table.get(request.method);
  if (!method)
    throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  // JSON-RPC allows positional params; every MCP method takes an object.
  if (Array.isArray(request.params))
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: params must be an object');
  return method;
}

/**
 * A method table with the server's middleware around every method (calls of members run theirs
 * inside; see aroundMethod).
 */
export function methodTable(
  entries: readonly (readonly [string, MethodSpec])[],
): ReadonlyMap<string, MethodSpec> {
  return new Map(entries.map(([name, spec]) => [name, aroundMethod(name, spec)]));
}
