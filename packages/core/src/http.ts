import {
  httpEraHooks,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  modeOf,
  scopeLookup,
} from './protocol/index.js';
import { endpointLimiter } from './http-rate-limit.js';
import type { Servable } from './servable.js';
import {
  SURFACE_FINGERPRINT_KEY,
  surfaceFingerprint,
  type RateLimit,
  type Registry,
} from './registry/index.js';
import { fetchExchange, HttpEndpoint, type HttpEndpointOptions } from './transports/http/index.js';

/**
 * Options of {@link createHttpHandler}: the endpoint's, and its own rate limit.
 *
 * @example
 * ```ts
 * createHttpHandler(server, { allowedHosts: ['mcp.example.com'], rateLimit: { max: 600, perMs: 60_000, key: 'identity' } });
 * ```
 */
export interface HttpHandlerOptions extends HttpEndpointOptions {
  /**
   * Limits requests to the whole endpoint (every POST, GET and DELETE): the same
   * `{ max, perMs, key? }` as a tool's `rateLimit`, counted per client address by default
   * (`session` counts per address too: a request reaches the endpoint before any session), per
   * `identity` (by address when unauthenticated) or `global`ly. The counters live in the
   * server's `limits.rateLimitStore`, and `identity` is named by its `limits.identify`. Over the
   * limit the client gets 429 with `Retry-After`. Off by default. Per address (and `global`) it
   * is checked before `authenticate`, so a flood of bad credentials is refused before any token
   * verifier (or the issuer behind it) is asked; `identity` is checked after authentication.
   *
   * @example
   * ```ts
   * const mcp = createHttpHandler(server, { rateLimit: { max: 300, perMs: 60_000 } });
   * // over the limit: 429 Too Many Requests, Retry-After: <seconds>
   * ```
   */
  readonly rateLimit?: RateLimit;
}

export type {
  HttpEndpointOptions,
  AuthOutcome,
  AuthRejection,
  HttpReply,
  MemberAccess,
  EventStore,
  HttpRequestView,
  ResponseMode,
  HealthOptions,
  ServerCardData,
  ServerCardOptions,
} from './transports/http/index.js';
export { MemoryEventStore } from './transports/http/index.js';
export type { MemoryEventStoreOptions } from './transports/http/index.js';

/** A web-standard MCP HTTP handler. */
export interface McpHttpHandler {
  /**
   * Serves one request: `(Request) => Promise<Response>`, for any fetch-style runtime. Pass the
   * client's address when the runtime gives it (Deno: `info.remoteAddr.hostname`; Bun:
   * `server.requestIP(req)?.address`) for per-address rate limits and the audit log.
   */
  fetch(request: Request, info?: { remoteAddress?: string }): Promise<Response>;
  /** The endpoint behind it (also used by the node:http adapter). */
  readonly endpoint: HttpEndpoint;
  /**
   * Ends every session, stops sharing through `options.store` (see `McpFwServer.unshare`) and
   * lets middleware flush what it buffered (see `McpFwServer.flush`).
   */
  close(): Promise<void>;
}

/**
 * Serves `server` over HTTP as a web-standard handler: Streamable HTTP on `/mcp` for every
 * revision (legacy sessions and stateless 2026-07-28 requests, told apart per request) and the
 * 2024-11-05 HTTP+SSE transport on `/sse` + `/messages`, with Origin/Host checks, body limits and
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
export function createHttpHandler(
  server: Servable,
  options: HttpHandlerOptions = {},
): McpHttpHandler {
  const { rateLimit, ...endpointOptions } = options;
  const store = options.store;
  // serveHttp waits for this before listening; a bare handler starts serving at once.
  if (store)
    server
      .share?.(store)
      .catch((error: unknown) =>
        console.error(
          `[mcp-fw] could not share server events through the store: ${error instanceof Error ? error.message : error}`,
        ),
      );
  const endpoint = new HttpEndpoint(
    {
      connect: (channel, era) => server.connect(channel, modeOf(era)),
      versions: LEGACY_REVISIONS,
      card: server.serverCard,
      // Newest first: the stateless revision, then the legacy ones (every era is served here).
      cardVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
      // What `mcp-fw surface snapshot` records, for the registry being served at the time.
      cardMeta: isRegistry(server.registry)
        ? async () => ({
            [SURFACE_FINGERPRINT_KEY]: await surfaceFingerprint(server.registry as Registry),
          })
        : undefined,
      eras: httpEraHooks(() => server.registry),
      // Members' scopes live in a full registry (an McpFwServer's); a relay such as mcp-fw dev's has none.
      scopes: isRegistry(server.registry)
        ? scopeLookup(() => server.registry as Registry)
        : undefined,
      admit: rateLimit && endpointLimiter(rateLimit, server.guards),
      principal: server.guards && ((auth) => server.guards!.principal(auth)),
      log: server.guards?.logger && ((line) => server.guards!.logger!.error(line)),
      refused:
        server.guards &&
        (({ peer, ...refusal }) =>
          server.guards!.refused({ ...refusal, auth: peer.auth, address: peer.remoteAddress })),
    },
    endpointOptions,
  );
  return {
    fetch: (request, info) =>
      fetchExchange(request, (req, res) => endpoint.handle(req, res), info?.remoteAddress),
    endpoint,
    async close() {
      await endpoint.close();
      // What the store started here (beats, subscriptions) ends with the endpoint.
      if (store) server.unshare?.();
      // What middleware buffered (spans, metrics) goes out before the process may end.
      await server.flush?.();
    },
  };
}

function isRegistry(lookup: Servable['registry']): lookup is Registry {
  return typeof (lookup as Partial<Registry>).prompt === 'function';
}

export {
  StoreUnavailableError,
  type MessageBus,
  type SessionChange,
  type SessionRecord,
  type SessionRecordRefusal,
  type SessionRecords,
  type RecordedSessionState,
  type SessionStateBounds,
  type SessionStates,
  type SharedSessionLimits,
  type AnsweredRoundCaps,
  type AnsweredRoundRefusal,
  type SharedStore,
  type SharedTaskLimits,
  type StoredEvents,
  type TaskRecord,
  type TaskRecords,
} from './stores/index.js';
