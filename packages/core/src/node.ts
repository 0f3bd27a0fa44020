import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createHttpHandler, type HttpHandlerOptions, type McpHttpHandler } from './http.js';
import type { Servable } from './servable.js';
import type { HttpRequestView, HttpResponder } from './transports/http/exchange.js';
import { nodeExchange } from './transports/http/node-adapter.js';
import { isAddressInUse, PortInUseError } from './transports/http/port-in-use.js';

export { PortInUseError };
export { viewsIn, type FolderViewOptions } from './registry/views-folder.js';

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Longest silence while a request body is being received, in ms: a client that stops sending
   * mid-body gets 408 and its connection is closed. Default: none (the server's own
   * `requestTimeout` still bounds the whole request); {@link serveHttp} sets 10 s.
   */
  readonly bodyIdleTimeoutMs?: number;
}

/**
 * A `node:http` request listener for an MCP HTTP handler — for `http.createServer`, Express
 * (`app.all('/mcp', listener)`) or any framework that exposes the Node request and response.
 * The server's timeouts and connection cap stay yours to set (see {@link ServeHttpOptions} for
 * the values `serveHttp` uses).
 *
 * @example
 * ```ts
 * const mcp = createHttpHandler(server);
 * const app = express();
 * app.all(['/mcp', '/sse', '/messages'], toNodeListener(mcp, { bodyIdleTimeoutMs: 10_000 })); // before any body parser
 * ```
 */
export function toNodeListener(
  handler: McpHttpHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  // Made once, not per request.
  const handle = (view: HttpRequestView, responder: HttpResponder) =>
    handler.endpoint.handle(view, responder);
  return (req, res) => {
    nodeExchange(req, res, handle, options, reportFailure);
  };
}

function reportFailure(error: unknown): void {
  process.stderr.write(
    `[mcp-fw] HTTP handler failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
  );
}

/**
 * Options of {@link serveHttp}. The timeouts and the connection cap keep slow or idle clients
 * from holding the server: a client trickling its headers or body is cut off after a bounded
 * time, an idle keep-alive connection is closed, and connections beyond the cap are refused.
 * None of them applies to a response being streamed (SSE): Node's request timeouts cover
 * receiving the request only. Each takes 0 to turn it off.
 *
 * @example
 * ```ts
 * await serveHttp(server, { port: 3000, requestTimeoutMs: 120_000, maxBodyBytes: 16 * 1024 * 1024 });
 * ```
 */
export interface ServeHttpOptions extends HttpHandlerOptions, NodeListenerOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: local servers are not reachable from the network unless asked. */
  host?: string;
  /**
   * Time to receive a request's headers, in ms (Node `headersTimeout`); then 408 and the
   * connection is closed. Default 10 s: real clients send headers in one packet.
   */
  headersTimeoutMs?: number;
  /**
   * Time to receive a whole request, headers and body, in ms (Node `requestTimeout`); then 408.
   * Default 30 s: a body of the default 4 MiB limit needs about 1.2 Mbit/s to arrive in time;
   * raise it together with `maxBodyBytes`. Must not be below `headersTimeoutMs`.
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open between requests, in ms (Node
   * `keepAliveTimeout`). Default 5 s.
   */
  keepAliveTimeoutMs?: number;
  /**
   * Most connections open at once (Node `maxConnections`); further ones are closed on arrival.
   * Default 1024: each costs a socket and its buffers, and a streaming client holds one or two.
   */
  maxConnections?: number;
}

/** The defaults of {@link ServeHttpOptions}' timeouts and connection cap. */
export const SERVE_HTTP_DEFAULTS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
});

/** A listening HTTP server. */
export interface HttpServerHandle {
  /** e.g. `http://127.0.0.1:3000/mcp` */
  readonly url: string;
  readonly port: number;
  readonly httpServer: Server;
  readonly handler: McpHttpHandler;
  /** Stops listening, ends every session, stops sharing through `store` and flushes middleware (telemetry). */
  close(): Promise<void>;
}

/**
 * Serves `server` over HTTP on a node:http server bound to 127.0.0.1 by default. Rejects with
 * a {@link PortInUseError} (the port, how to find who holds it, the fix) when the port is taken.
 *
 * @example
 * ```ts
 * const { url } = await serveHttp(server, { port: 3000 });
 * console.error(`MCP endpoint: ${url}`);
 * ```
 */
export async function serveHttp(
  server: Servable,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  const {
    port = 3000,
    host = '127.0.0.1',
    headersTimeoutMs,
    requestTimeoutMs,
    bodyIdleTimeoutMs,
    keepAliveTimeoutMs,
    maxConnections,
    ...endpointOptions
  } = options;
  const limits = serverLimits({
    headersTimeoutMs,
    requestTimeoutMs,
    bodyIdleTimeoutMs,
    keepAliveTimeoutMs,
    maxConnections,
  });
  // Hear the other instances before serving, so no event raised meanwhile is missed.
  if (endpointOptions.store) await server.share?.(endpointOptions.store);
  const handler = createHttpHandler(server, endpointOptions);
  // Required here, not imported: loading node:http (eight of Node's modules) was the largest
  // part of what a stdio start through serveFromArgs paid for the HTTP path it never takes
  // (bench/README.md, cold start). createRequire: `mcp-fw build --bundle` leaves node: alone.
  const httpServer = (
    createRequire(import.meta.url)('node:http') as typeof import('node:http')
  ).createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks the two timeouts above only this often (default 30 s).
      connectionsCheckingInterval: checkingInterval(
        limits.headersTimeoutMs,
        limits.requestTimeoutMs,
      ),
    },
    toNodeListener(handler, { bodyIdleTimeoutMs: limits.bodyIdleTimeoutMs }),
  );
  httpServer.keepAliveTimeout = limits.keepAliveTimeoutMs;
  httpServer.maxConnections = limits.maxConnections === 0 ? Infinity : limits.maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(port, host, () => resolve());
    });
  } catch (error) {
    // Not serving after all (the port is taken): what the store started stops too.
    await handler.close();
    throw isAddressInUse(error) ? new PortInUseError(port, host, { cause: error }) : error;
  }
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

type Limits = { -readonly [K in keyof typeof SERVE_HTTP_DEFAULTS]: number };

function serverLimits(given: Partial<Record<keyof Limits, number | undefined>>): Limits {
  const limits = { ...SERVE_HTTP_DEFAULTS } as Limits;
  for (const key of Object.keys(limits) as (keyof Limits)[]) {
    const value = given[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(
        `serveHttp: ${key} must be a whole number ≥ 0 (0 turns it off), got ${String(value)}`,
      );
    }
    limits[key] = value;
  }
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new RangeError(
      `serveHttp: headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed requestTimeoutMs (${limits.requestTimeoutMs}): the request timeout includes the headers`,
    );
  }
  return limits;
}

// Expiry is noticed within a tenth of the shortest timeout, between 25 ms and 1 s.
function checkingInterval(...timeouts: number[]): number {
  const shortest = Math.min(...timeouts.filter((t) => t > 0));
  return Number.isFinite(shortest)
    ? Math.min(1000, Math.max(25, Math.floor(shortest / 10)))
    : 30_000;
}
export { loadSkills, type LoadSkillsOptions } from './skills-folder.js';
