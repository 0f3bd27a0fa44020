import { httpEraHooks, LEGACY_REVISIONS } from './protocol/index.js';
import type { McpServer } from './server.js';
import { fetchExchange, HttpEndpoint, type HttpEndpointOptions } from './transports/http/index.js';

export type { HttpEndpointOptions, AuthOutcome, EventStore, HttpRequestView, ResponseMode } from './transports/http/index.js';
export { MemoryEventStore } from './transports/http/index.js';

/** A web-standard MCP HTTP handler. */
export interface McpHttpHandler {
  /** Serves one request: `(Request) => Promise<Response>`, for any fetch-style runtime. */
  fetch(request: Request): Promise<Response>;
  /** The endpoint behind it (also used by the node:http adapter). */
  readonly endpoint: HttpEndpoint;
  /** Ends every session. */
  close(): Promise<void>;
}

/**
 * Serves `server` over HTTP as a web-standard handler: Streamable HTTP on `/mcp` for every
 * revision (legacy sessions and stateless 2026-07-28 requests, told apart per request) and the
 * legacy HTTP+SSE transport on `/sse` + `/messages`, with Origin/Host checks, body limits and
 * framework-owned sessions. Mount it in any framework that speaks `Request`/`Response`.
 *
 * @example
 * ```ts
 * import { createHttpHandler } from '@mcp-fw/core/http';
 * const mcp = createHttpHandler(server);
 * // Hono: app.all('/mcp', (c) => mcp.fetch(c.req.raw));
 * // Deno: Deno.serve(mcp.fetch);
 * ```
 */
export function createHttpHandler(server: McpServer, options: HttpEndpointOptions = {}): McpHttpHandler {
  const endpoint = new HttpEndpoint(
    {
      connect: (channel, era) => server.connect(channel, era),
      versions: LEGACY_REVISIONS,
      eras: httpEraHooks(() => server.registry),
    },
    options,
  );
  return {
    fetch: (request) => fetchExchange(request, (req, res) => endpoint.handle(req, res)),
    endpoint,
    close: () => endpoint.close(),
  };
}
