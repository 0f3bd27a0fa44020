import { JsonRpcCode, subscriptionTag, type JsonRpcId } from '@mcp-fw/core/transport';

/** A JSON-RPC message as relayed (parsed, rewritten, serialized again). */
export type Message = Record<string, any>;

/** An error response. */
export function errorOf(id: unknown, code: number, message: string, data?: unknown): Message {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

/** `params` (or a result) with its subscription id replaced by the client's listen id. */
export function retag(params: Message, clientId: JsonRpcId): Message {
  return { ...params, _meta: { ...params._meta, ...subscriptionTag(clientId) } };
}

/**
 * What a request gets while no child can serve: methods that need no server are answered as a
 * server would (the session state they set is replayed later); everything else gets `error`.
 * `subscriptions/listen` is not answered here (the stream stays open for the next child).
 */
export function answerWhileDown(
  m: Message,
  error: string,
  initialize: (params: Message | undefined) => Message,
): Message {
  switch (m.method) {
    case 'ping':
    case 'logging/setLevel':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return { jsonrpc: '2.0', id: m.id, result: {} };
    case 'initialize':
      return { jsonrpc: '2.0', id: m.id, result: initialize(m.params) };
    default:
      return errorOf(
        m.id,
        JsonRpcCode.InternalError,
        `mcp-fw dev cannot serve ${m.method}: ${error}`,
        { reloadError: error },
      );
  }
}
