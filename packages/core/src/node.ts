import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler, type HttpHandlerOptions, type McpHttpHandler } from './http.js';
import type { McpServer } from './server.js';
import { nodeExchange } from './transports/http/node-adapter.js';

/**
 * A `node:http` request listener for an MCP HTTP handler — for `http.createServer`, Express
 * (`app.all('/mcp', listener)`) or any framework that exposes the Node request and response.
 *
 * @example
 * ```ts
 * const mcp = createHttpHandler(server);
 * const app = express();
 * app.all(['/mcp', '/sse', '/messages'], toNodeListener(mcp)); // before any body parser
 * ```
 */
export function toNodeListener(handler: McpHttpHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    nodeExchange(req, res, (view, responder) => handler.endpoint.handle(view, responder)).catch((error) => {
      process.stderr.write(`[mcp-fw] HTTP handler failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    });
  };
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends HttpHandlerOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: local servers are not reachable from the network unless asked. */
  host?: string;
}

/** A listening HTTP server. */
export interface HttpServerHandle {
  /** e.g. `http://127.0.0.1:3000/mcp` */
  readonly url: string;
  readonly port: number;
  readonly httpServer: Server;
  readonly handler: McpHttpHandler;
  close(): Promise<void>;
}

/**
 * Serves `server` over HTTP on a node:http server bound to 127.0.0.1 by default.
 *
 * @example
 * ```ts
 * const { url } = await serveHttp(server, { port: 3000 });
 * console.error(`MCP endpoint: ${url}`);
 * ```
 */
export async function serveHttp(server: McpServer, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const { port = 3000, host = '127.0.0.1', ...endpointOptions } = options;
  const handler = createHttpHandler(server, endpointOptions);
  const httpServer = createHttpServer(toNodeListener(handler));
  httpServer.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => resolve());
  });
  const actual = (httpServer.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${actual}${endpointOptions.path ?? '/mcp'}`,
    port: actual,
    httpServer,
    handler,
    async close() {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
