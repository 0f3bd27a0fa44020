import { JsonRpcCode, JsonRpcError } from '@mcp-fw/core/transport';
import type { ElicitRequest, ElicitResult, InputHandlers, InputInfo } from './types.js';

/**
 * The capabilities a client declares for the handlers it was given: what makes a server ask it
 * for input at all.
 */
export function inputCapabilities(handlers: InputHandlers): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (handlers.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (handlers.sampling) capabilities.sampling = {};
  if (handlers.roots) capabilities.roots = {};
  return capabilities;
}

/**
 * Answers one question from the server — a legacy server→client request, or one entry of a
 * 2026-07-28 `input_required` result: the same handler serves both.
 */
export async function answerInput(
  handlers: InputHandlers,
  method: string,
  params: Record<string, unknown> | undefined,
  info: InputInfo,
): Promise<unknown> {
  switch (method) {
    case 'elicitation/create': {
      const handler = need(handlers.elicitation, method, 'elicitation');
      const request = (params ?? {}) as unknown as ElicitRequest;
      return withDefaults(request, await handler(request, info));
    }
    case 'sampling/createMessage':
      return need(handlers.sampling, method, 'sampling')(params ?? {}, info);
    case 'roots/list':
      return { roots: [...(await need(handlers.roots, method, 'roots')(info))] };
    default:
      throw new JsonRpcError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
  }
}

function need<T>(handler: T | undefined, method: string, name: string): T {
  if (handler === undefined)
    throw new JsonRpcError(
      JsonRpcCode.MethodNotFound,
      `The server asked for ${method}, but this client has no ${name} handler (pass handlers.${name} to connect())`,
    );
  return handler;
}

/**
 * SEP-1034: an accepted form answer gets the requested schema's defaults for the fields the user
 * left out, so a handler may answer only what it changed.
 */
function withDefaults(request: ElicitRequest, result: ElicitResult): ElicitResult {
  const properties = request.requestedSchema?.properties;
  if (result.action !== 'accept' || !properties) return result;
  const content: Record<string, unknown> = { ...result.content };
  for (const [key, schema] of Object.entries(properties))
    if (!(key in content) && schema && typeof schema === 'object' && 'default' in schema)
      content[key] = (schema as { default: unknown }).default;
  return { ...result, content };
}
