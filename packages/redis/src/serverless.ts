import { ErrorCode } from '@mcp-fw/core';
import { createHttpHandler, type HttpHandlerOptions, type McpHttpHandler } from '@mcp-fw/core/http';
import type { Servable } from '@mcp-fw/core/transport';
import { redisStore, type RedisStoreOptions } from './redis-store.js';

/**
 * Options of {@link serverlessHandler}.
 *
 * @example
 * ```ts
 * export default serverlessHandler(() => createNotesServer(), { redis: process.env.REDIS_URL });
 * ```
 */
export interface ServerlessHandlerOptions {
  /**
   * Where legacy sessions live between instances: a Redis URL or `redisStore` options (default
   * `process.env.REDIS_URL`). `false` serves 2026-07-28 only, and a legacy `initialize` gets 400
   * (-32600) naming REDIS_URL: a session kept in one instance's memory would be gone on the next.
   */
  readonly redis?: string | RedisStoreOptions | false;
  /** The HTTP endpoint's options (path, allowedHosts, authenticate, limits, …). */
  readonly http?: Omit<HttpHandlerOptions, 'store'>;
}

/**
 * A fetch handler, also callable as a function: `export default` it from a Vercel (`{ fetch }`)
 * or Netlify (`(request, context) => Response`) function file.
 */
export interface ServerlessHandler {
  /** Serves one request (Netlify's `context.ip` is the client's address for per-address limits). */
  (request: Request, context?: { readonly ip?: string }): Promise<Response>;
  /** The same, as the `fetch` of a `{ fetch }` default export (Vercel, Bun, Deno). */
  fetch(request: Request, context?: { readonly ip?: string }): Promise<Response>;
}

/**
 * Serves an mcp-fw server from a serverless Node function (Vercel, Netlify), where any request
 * may meet a cold instance: stateless 2026-07-28 requests as they come, and legacy sessions
 * (2024-11-05 … 2025-11-25) through Redis, so `initialize` on one instance, `tools/call` on a
 * fresh one and the answer to its elicitation on a third work as one session. The instance
 * connects to Redis when it starts (not on each request) and builds the server once.
 *
 * @example
 * ```ts
 * // api/mcp.ts (Vercel) or netlify/functions/mcp.ts (with export const config = { path: '/mcp' })
 * import { serverlessHandler } from '@mcp-fw/redis';
 * import { createServer } from '@mcp-fw/core';
 *
 * export default serverlessHandler(() =>
 *   createServer({ name: 'notes', version: '1.0.0', providers: [Notes] }),
 * ); // REDIS_URL from the platform's environment
 * ```
 */
export function serverlessHandler(
  server: Servable | (() => Servable | Promise<Servable>),
  options: ServerlessHandlerOptions = {},
): ServerlessHandler {
  const redis = options.redis === undefined ? process.env.REDIS_URL : options.redis;
  if (redis === undefined || redis === '')
    throw new Error(
      'serverlessHandler: no Redis for legacy sessions (REDIS_URL is unset and no redis option was given); a serverless instance may be new on every request, so a session kept in memory would be lost. Fix: set REDIS_URL (redis://…), or pass { redis: false } to serve the stateless 2026-07-28 revision only',
    );
  const path = options.http?.path ?? '/mcp';
  // Started with the instance, so connecting overlaps the platform's cold start.
  let ready: Promise<McpHttpHandler> | undefined;
  const handler = (): Promise<McpHttpHandler> => {
    ready ??= (async () => {
      const servable = typeof server === 'function' ? await server() : server;
      if (redis === false) return createHttpHandler(servable, options.http);
      const store = await redisStore(redis);
      // As serveHttp does: hear the other instances before serving.
      await servable.share?.(store);
      return createHttpHandler(servable, { ...options.http, store });
    })();
    // A failed start (Redis unreachable) is tried again by the next request.
    ready.catch(() => (ready = undefined));
    return ready;
  };
  // Said once at cold start, in the function's log; requests then get 503 naming it.
  handler().catch((error: unknown) =>
    console.error(
      `[mcp-fw/redis] the serverless function could not start its MCP server: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );

  async function fetch(request: Request, context?: { readonly ip?: string }): Promise<Response> {
    if (redis === false && request.method === 'POST' && new URL(request.url).pathname === path) {
      const body = await request.text();
      const refused = legacyRefusal(body);
      if (refused) return refused;
      request = new Request(request, { body });
    }
    let mcp: McpHttpHandler;
    try {
      mcp = await handler();
    } catch (error) {
      return unavailable(error);
    }
    return mcp.fetch(request, context?.ip ? { remoteAddress: context.ip } : undefined);
  }
  return Object.assign(
    (request: Request, context?: { readonly ip?: string }) => fetch(request, context),
    { fetch },
  );
}

const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';

// Only an `initialize` without the 2026-07-28 envelope opens a legacy session; without Redis it
// is refused with the fix, instead of a session the next instance would not know (404 loops).
function legacyRefusal(body: string): Response | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params, id } = message as {
    method?: unknown;
    params?: { _meta?: unknown };
    id?: unknown;
  };
  if (method !== 'initialize') return undefined;
  const meta = params?._meta;
  if (typeof meta === 'object' && meta !== null && ENVELOPE_VERSION in meta) return undefined;
  return Response.json(
    {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: {
        code: ErrorCode.InvalidRequest,
        message:
          'Bad Request: this serverless function serves the stateless 2026-07-28 revision only, so legacy sessions (initialize, 2024-11-05 to 2025-11-25) are not available. Fix: give the function a Redis (REDIS_URL, the redis option of serverlessHandler), or use a 2026-07-28 client',
      },
    },
    { status: 400 },
  );
}

function unavailable(error: unknown): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: ErrorCode.LimitReached,
        message: `Service Unavailable: the function could not start its MCP server (${error instanceof Error ? error.message : String(error)}). Fix: check that REDIS_URL names a Redis this function can reach`,
      },
    },
    { status: 503, headers: { 'retry-after': '1' } },
  );
}
