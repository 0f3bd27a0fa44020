import {
  Engine,
  JsonRpcError,
  type Channel,
  type Servable,
  type ServedConnection,
} from '@mcp-fw/core/transport';

/** How a scripted server answers one method: a result, or a thrown JsonRpcError. */
export type Script = Record<string, (params: Record<string, unknown>) => unknown>;

/**
 * A server that answers from a script, on core's engine: for peers no real server is (one that
 * lies about its output, speaks only one revision, or never answers). In memory, like any
 * `Servable`; methods the script lacks get -32601.
 */
export function scriptedServer(script: Script): Servable & { readonly methods: string[] } {
  const methods: string[] = [];
  return {
    methods,
    registry: { tool: () => undefined },
    connect(channel: Channel): ServedConnection {
      const engine = new Engine(channel, {
        request: (request) => {
          methods.push(request.method);
          const answer = script[request.method];
          if (!answer) throw new JsonRpcError(-32601, `Method not found: ${request.method}`);
          return answer(request.params ?? {});
        },
        notification: (method) => void methods.push(method),
        mapError: (error) =>
          error instanceof JsonRpcError ? error.toJSON() : { code: -32603, message: String(error) },
        acceptBatch: () => false,
      });
      return { engine, close: (grace) => engine.close(grace) };
    },
  };
}

/** The `initialize` answer of a legacy server speaking `version`. */
export function initialized(
  version: string,
  capabilities: Record<string, unknown> = { tools: {} },
) {
  return () => ({
    protocolVersion: version,
    capabilities,
    serverInfo: { name: 'scripted', version: '1' },
  });
}
