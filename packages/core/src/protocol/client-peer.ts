import {
  Engine,
  JsonRpcCode,
  JsonRpcError,
  type Channel,
  type InboundRequest,
} from '../jsonrpc/index.js';

/** What the client end of a connection does with the messages the server starts. */
export interface ClientPeerHandlers {
  /**
   * Answers a request from the server (`elicitation/create`, `sampling/createMessage`,
   * `roots/list`, `ping`): return or resolve the result, or throw a {@link JsonRpcError} to
   * answer with that error (anything else thrown answers -32603 with its message). Without
   * this handler every server request is answered -32601.
   */
  request?(
    method: string,
    params: Record<string, unknown> | undefined,
    request: InboundRequest,
  ): unknown;
  /** A notification from the server (progress, log messages, `list_changed`, …). */
  notification?(method: string, params: Record<string, unknown> | undefined): void;
}

/** Options of {@link createClientPeer}. */
export interface ClientPeerOptions {
  /** How long a request waits for its answer (default: as long as it takes). */
  readonly timeoutMs?: number;
  /** Tell the server `notifications/cancelled` when a request times out or its signal aborts (default true). */
  readonly cancelAbandoned?: boolean;
}

/**
 * The client end of an MCP connection over any {@link Channel}: core's own JSON-RPC engine,
 * with the defaults a client wants (no timeout, `notifications/cancelled` for what it gives up). `request` resolves with the result or rejects with a
 * {@link JsonRpcError} carrying the server's error; requests from the server go to
 * `handlers.request`, notifications to `handlers.notification`; a batch from the server is
 * refused (MCP servers never send one).
 *
 * @example
 * ```ts
 * import { createClientPeer, createInMemoryPair } from '@mcp-fw/core/transport';
 *
 * const [clientSide, serverSide] = createInMemoryPair();
 * server.connect(serverSide);
 * const peer = createClientPeer(clientSide, {
 *   request: (method, params) => (method === 'elicitation/create' ? { action: 'decline' } : {}),
 *   notification: (method, params) => console.error(method, params),
 * });
 * await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'me', version: '1' } });
 * peer.notify('notifications/initialized');
 * const { tools } = (await peer.request('tools/list', {})) as { tools: unknown[] };
 * ```
 */
export function createClientPeer(
  channel: Channel,
  handlers: ClientPeerHandlers = {},
  options: ClientPeerOptions = {},
): Engine {
  const engine: Engine = new Engine(
    channel,
    {
      request: (request) => {
        if (!handlers.request)
          throw new JsonRpcError(JsonRpcCode.MethodNotFound, `Method not found: ${request.method}`);
        return handlers.request(request.method, request.params, request);
      },
      notification: (method, params) =>
        handlers.notification?.(method, params as Record<string, unknown> | undefined),
      mapError: (error) =>
        error instanceof JsonRpcError
          ? error.toJSON()
          : {
              code: JsonRpcCode.InternalError,
              message: error instanceof Error ? error.message : String(error),
            },
      acceptBatch: () => false,
      outboundAbandoned:
        options.cancelAbandoned === false
          ? undefined
          : (requestId, reason) =>
              engine.notify('notifications/cancelled', { requestId, reason: String(reason) }),
    },
    { outboundTimeoutMs: options.timeoutMs ?? Infinity },
  );
  return engine;
}
