import { JsonRpcCode, subscriptionTag, type JsonRpcId } from '@mcp-fw/core/transport';

/**
 * A JSON-RPC message as relayed (parsed, rewritten, serialized again): typed as JSON-RPC says,
 * not checked at run time (the child's engine answers a malformed one as production would).
 * Members the relay does not act on pass through untouched.
 */
export interface Message {
  readonly jsonrpc?: string;
  /** `null` in an answer to a request that could not be read. */
  readonly id?: JsonRpcId | null;
  readonly method?: string;
  readonly params?: Params;
  readonly result?: Params;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly [member: string]: unknown;
}

/**
 * A request as relayed: its id is passed on as the peer sent it, whatever it
 * is (the child's engine answers an invalid one).
 */
export type RequestMessage = Message & { readonly id: JsonRpcId; readonly method: string };

/** A notification as relayed. */
export type NotificationMessage = Message & { readonly method: string };

/** The `params` or `result` of a relayed message (the members the relay reads). */
export interface Params {
  readonly _meta?: { readonly [key: string]: unknown };
  readonly requestId?: JsonRpcId;
  readonly requestState?: unknown;
  readonly notifications?: unknown;
  readonly [member: string]: unknown;
}

/** An error response. */
export function errorOf(
  id: JsonRpcId | null | undefined,
  code: number,
  message: string,
  data?: unknown,
): Message {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

/** `params` (or a result) with its subscription id replaced by the client's listen id. */
export function retag(params: Params, clientId: JsonRpcId): Params {
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
  initialize: (params: Params | undefined) => Params,
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
