import { Engine, JsonRpcError } from './jsonrpc/index.js';
import { LATEST_LEGACY, type ServerConnection } from './protocol/index.js';
import type { McpServer } from './server.js';
import { createInMemoryPair } from './transports/in-memory.js';

/** Options of {@link connectTestClient}. */
export interface TestClientOptions {
  /** The revision the client offers at initialize (default: the latest legacy revision). */
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
}

/** A notification the server sent to the test client. */
export interface ReceivedNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** An in-memory MCP client bound to one server: no process, no port. */
export interface TestClient {
  /** The `initialize` result. */
  readonly initializeResult: Record<string, unknown>;
  /** Every notification received so far, in order. */
  readonly notifications: readonly ReceivedNotification[];
  /** Sends any request; rejects with a `JsonRpcError` carrying the server's error. */
  request(method: string, params?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<any>;
  notify(method: string, params?: Record<string, unknown>): void;
  listTools(cursor?: string): Promise<{ tools: any[]; nextCursor?: string }>;
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<any>;
  close(): Promise<void>;
}

/**
 * Connects an in-memory client to `server`, runs the `initialize` handshake at the chosen
 * revision, and returns a client for your tests.
 *
 * @example
 * ```ts
 * import { connectTestClient } from '@mcp-fw/core/testing';
 *
 * const client = await connectTestClient(createServer({ name: 't', version: '1', providers: [Calculator] }));
 * const result = await client.callTool('add', { a: 1, b: 2 });
 * expect(result.content[0].text).toBe('3');
 * ```
 */
export async function connectTestClient(server: McpServer, options: TestClientOptions = {}): Promise<TestClient> {
  const [clientSide, serverSide] = createInMemoryPair();
  const connection: ServerConnection = server.connect(serverSide);
  const notifications: ReceivedNotification[] = [];
  const engine = new Engine(clientSide, {
    request: (request) => {
      throw new JsonRpcError(-32601, `Method not found: ${request.method} (the test client answers no requests)`);
    },
    notification: (method, params) => notifications.push({ method, params: params as Record<string, unknown> }),
    mapError: (error) => (error instanceof JsonRpcError ? error.toJSON() : { code: -32603, message: String(error) }),
    acceptBatch: () => false,
    // Like a real client, an aborted call tells the server to stop.
    outboundAbandoned: (requestId, reason) =>
      engine.notify('notifications/cancelled', { requestId, reason: String(reason) }),
  });
  const request = (method: string, params?: Record<string, unknown>, opts: { signal?: AbortSignal } = {}) =>
    engine.request(method, params, { signal: opts.signal }) as Promise<any>;
  const initializeResult = (await request('initialize', {
    protocolVersion: options.protocolVersion ?? LATEST_LEGACY,
    capabilities: options.capabilities ?? {},
    clientInfo: options.clientInfo ?? { name: 'mcp-fw-test-client', version: '0.0.0' },
  })) as Record<string, unknown>;
  engine.notify('notifications/initialized');
  return {
    initializeResult,
    notifications,
    request,
    notify: (method, params) => engine.notify(method, params),
    listTools: (cursor) => request('tools/list', cursor === undefined ? {} : { cursor }),
    callTool: (name, args, opts) => request('tools/call', args === undefined ? { name } : { name, arguments: args }, opts),
    close: async () => {
      await engine.close();
      await connection.engine.close();
    },
  };
}

export { JsonRpcError };
