import { JsonRpcCode } from '../../jsonrpc/codes.js';
import type { EventStore } from './event-store.js';
import { MemoryEventStore } from './event-store.js';
import { ClientAddress } from './client-address.js';
import type { EventStreamSink, HeaderMap, HttpRequestView, HttpResponder } from './exchange.js';
import { HealthEndpoint, type HealthOptions } from './health.js';
import { ServerCardEndpoint, type ServerCardData, type ServerCardOptions } from './server-card.js';
import { corsHeaders } from './cors.js';
import { checkOrigin, type OriginPolicy } from './guard.js';
import { throttledLog } from './throttled-log.js';
import { Sse2024Endpoint } from './sse-2024.js';
import type { ResponseMode } from './request-stream.js';
import { sendError, sendRejection } from './responses.js';
import type { Peer } from '../../jsonrpc/index.js';
import type { SharedStore } from '../../stores/index.js';
import { StreamableEndpoint } from './streamable.js';
import type { Connect, EraHooks, LimitRefusal } from './streamable-settings.js';
import type { AuthRejection } from './auth-rejection.js';
import { headerMap } from './header-map.js';

export type { AuthRejection };

/**
 * What an authentication hook decides about one request: attach an identity, or refuse with
 * 401 (no or bad credentials), 403 (not allowed) or 503 (the credentials could not be checked
 * now, e.g. the issuer's keys are unreachable), a `WWW-Authenticate` challenge and any other
 * headers (such as `Retry-After`).
 */
export type AuthOutcome = { readonly auth?: unknown } | { readonly reject: AuthRejection };

/** One use of a member that declares OAuth scopes (`scopes` on `@Tool`, `@Resource`, `@Prompt`, or `@Scopes`). */
export interface MemberAccess {
  /**
   * `tools/call`, `prompts/get`, `resources/read`, `resources/subscribe`, `subscriptions/listen`
   * (each URI of its `resourceSubscriptions`) or `completion/complete`.
   */
  readonly method: string;
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  /** Every scope the member requires. */
  readonly scopes: readonly string[];
}

/** Where the transport learns which scopes a request needs (supplied by the protocol layer). */
export interface ScopeSource {
  /** From the 2026-07-28 routing headers, before the body is read. */
  fromHeaders(header: (name: string) => string | undefined): MemberAccess | undefined;
  /**
   * From a parsed message or batch; with `headersDecided` (2026-07-28), only what the routing
   * headers cannot name (a completion's member).
   */
  fromMessage(message: unknown, headersDecided?: boolean): readonly MemberAccess[];
}

/** A complete HTTP answer produced by an option (e.g. a metadata document). */
export interface HttpReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Options of the HTTP endpoint; every field has a safe default. */
export interface HttpEndpointOptions extends OriginPolicy {
  /** The Streamable HTTP endpoint (default `/mcp`). */
  readonly path?: string;
  /** A health endpoint for load balancers and orchestrators (off by default): see {@link HealthOptions}. */
  readonly health?: string | HealthOptions;
  /**
   * The Server Card at `<path>/server-card` and the AI Catalog listing it (see
   * {@link ServerCardOptions}): on by default for a server with a `registryName` and a
   * `description`; `false` turns it off, `true` requires it (startup fails without them).
   */
  readonly serverCard?: boolean | ServerCardOptions;
  /** The 2024-11-05 HTTP+SSE stream and message endpoints (default `/sse` and `/messages`). */
  readonly ssePath?: string;
  readonly messagesPath?: string;
  /** JSON unless messages precede the answer (`auto`, default), or always `sse` / `json`. */
  readonly responseMode?: ResponseMode;
  /** Largest accepted body (default 4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /**
   * Addresses or CIDRs of the proxies (load balancers) in front of this server, whose
   * `X-Forwarded-For` (else `Forwarded: for=`) is believed for the client's address (none by
   * default: the connection's address is the client's). The list is read right to left,
   * skipping these proxies; the first other address is the client's, which per-client limits
   * (`maxSessionsPerClient`, `limits.maxListenStreamsPerClient`, tasks per owner, rate limits by
   * address) count under and the audit log shows. Without it, behind a proxy, every
   * unauthenticated client shares the proxy's address and so one share of each limit: the
   * first request that shows a proxy is told on stderr.
   *
   * @example
   * ```ts
   * serveHttp(server, { host: '0.0.0.0', port: 3000, trustedProxies: ['10.0.0.0/8'] });
   * ```
   */
  readonly trustedProxies?: readonly string[];
  /**
   * Legacy sessions open at once, over both transports each (default 1000). At the cap the
   * least recently used idle session (no stream open) is closed to make room; only when none is
   * idle is a new one refused, with 503 and `Retry-After`.
   */
  readonly maxSessions?: number;
  /**
   * Legacy sessions one client may hold: per authenticated identity, else per address (default
   * 100). At the cap the client's own least recently used idle session is closed; with none idle
   * a new one is refused with 429 and `Retry-After`. Not counted when neither is known.
   */
  readonly maxSessionsPerClient?: number;
  /** Sessions idle longer than this are closed (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  /**
   * Mints the id of each new legacy session (`Mcp-Session-Id`, and the 2024-11-05 transport's
   * `sessionId`); default `crypto.randomUUID()`. An id must stay unguessable (it is the session's
   * only credential when clients are not authenticated) and visible ASCII. `@mcp-fw/cloudflare`
   * prefixes the Durable Object's id, so its Worker routes each request to the object holding
   * the session.
   *
   * @example
   * ```ts
   * createHttpHandler(server, { sessionIds: () => `eu1-${crypto.randomUUID()}` });
   * ```
   */
  readonly sessionIds?: () => string;
  /** Where SSE events are kept for `Last-Event-ID` resumption (default in memory; false: none). */
  readonly eventStore?: EventStore | false;
  /**
   * Where state shared by several instances lives (e.g. `await redisStore(url)` from
   * `@mcp-fw/redis`), so that any instance behind a load balancer, without affinity, serves any
   * request: Streamable HTTP legacy sessions (caps and principal binding hold across the
   * cluster), their event logs (unless `eventStore` is given), and through the server, list
   * changes, resource updates, input rounds and rate limits. The legacy HTTP+SSE transport
   * (`/sse`) stays bound to the instance that holds its stream. Default: this process's memory.
   */
  readonly store?: SharedStore;
  /** `retry:` hint sent with the priming event, in ms. */
  readonly retryMs?: number;
  /**
   * Sees each request first: reject it (401 carries `WWW-Authenticate`) or attach an identity
   * that handlers read as `ctx.auth`. A legacy session opened with an identity serves only that
   * identity (as `limits.identify` names it): to anyone else it is an unknown session (404).
   */
  readonly authenticate?: (req: HttpRequestView) => AuthOutcome | Promise<AuthOutcome>;
  /**
   * Answers requests for paths outside the MCP endpoints, before authentication: how a plug-in
   * such as an OAuth resource serves its `/.well-known/...` documents. Return undefined to let
   * the request through (a path nobody serves is a 404). Runs after the Host check but before
   * the Origin check and CORS, so serve only public documents here, with their own CORS headers.
   */
  readonly routes?: (
    req: HttpRequestView,
  ) => HttpReply | undefined | Promise<HttpReply | undefined>;
  /**
   * Decides whether the identity `authenticate` attached may use a member that declares
   * `scopes`: return a refusal (403 with an `insufficient_scope` challenge) or undefined to
   * allow. 2026-07-28 requests are decided from their `Mcp-Method` / `Mcp-Name` headers before
   * the body is read; legacy ones after it is parsed, before anything runs.
   */
  readonly authorize?: (auth: unknown, access: MemberAccess) => AuthRejection | undefined;
  /**
   * Browser origins allowed by CORS (off by default). Preflights allow the headers every
   * revision needs (`Content-Type`, `Accept`, `Authorization`, `Mcp-Session-Id`,
   * `MCP-Protocol-Version`, `Last-Event-ID`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); pages
   * may read `Mcp-Session-Id`, `WWW-Authenticate` and `Retry-After`. An origin must also pass
   * `allowedOrigins` (DNS-rebinding guard), which by default admits only localhost pages.
   */
  readonly cors?: { readonly origins: readonly string[] | '*' };
}

/**
 * The endpoint-wide rate limit: how long `req` must wait before it is served (ms; 0 serves it
 * now). Over the limit, the client gets 429 with `Retry-After`.
 */
export interface EndpointAdmission {
  (req: HttpRequestView, auth: unknown): number | Promise<number>;
  /**
   * It counts without the caller's identity (per address, or globally): then it runs before
   * authentication, so a flood of bad credentials is refused before the verifier (and the
   * issuer behind it) is asked. Otherwise it runs after, with the identity.
   */
  readonly beforeAuthentication: boolean;
}

export interface EndpointDeps {
  readonly connect: Connect;
  readonly versions: readonly string[];
  /** Which era each request belongs to: sessions, or 2026-07-28 requests beside them. */
  readonly eras: EraHooks;
  /** The endpoint-wide rate limit (see {@link EndpointAdmission}). */
  readonly admit?: EndpointAdmission;
  /** The principal an authentication result names, which sessions are bound to. */
  readonly principal?: (auth: unknown) => string | undefined;
  /** Told of every request refused at a limit (the audit log). */
  readonly refused?: (refusal: LimitRefusal) => void;
  /** Which scopes a request needs, for `authorize`. */
  readonly scopes?: ScopeSource;
  /** Where refusals the operator must act on are written (`AuthRejection.log`); default stderr. */
  readonly log?: (line: string) => void;
  /** Where a warning about the deployment goes (default: stderr). */
  readonly warn?: (message: string) => void;
  /** What the Server Card says of the server; undefined when it has no registry name. */
  readonly card?: ServerCardData;
  /** The revisions the card lists as supported, every era's (`versions` is the legacy ones). */
  readonly cardVersions?: readonly string[];
  /** The card's `_meta` (the surface's fingerprint, `surfaceFingerprint`), when known. */
  readonly cardMeta?: () => Promise<Record<string, unknown>>;
}

/**
 * One MCP HTTP endpoint: the security checks, then Streamable HTTP on `path` and the 2024-11-05
 * HTTP+SSE transport beside it. Runtime-neutral; the fetch and node:http front ends wrap it.
 */
export class HttpEndpoint {
  readonly #streamable: StreamableEndpoint;
  readonly #sse2024: Sse2024Endpoint;
  readonly #paths: { mcp: string; sse: string; messages: string };

  readonly #health?: HealthEndpoint;
  readonly #card?: ServerCardEndpoint;
  readonly #admit: EndpointDeps['admit'];
  readonly #principal: EndpointDeps['principal'];
  readonly #scopes: ScopeSource | undefined;
  readonly #log: (line: string) => void;
  readonly #address: ClientAddress;

  constructor(
    deps: EndpointDeps,
    private readonly options: HttpEndpointOptions = {},
  ) {
    this.#admit = deps.admit;
    this.#principal = deps.principal;
    this.#log = throttledLog(deps.log ?? ((line) => console.error(`[mcp-fw] ${line}`)));
    const warn = deps.warn ?? ((message: string) => console.error(`[mcp-fw] ${message}`));
    this.#address = new ClientAddress(options.trustedProxies, warn);
    // Instances sharing a store sit behind a balancer: said at startup, not after a lock-out.
    if (options.store && !options.trustedProxies?.length && !options.authenticate)
      warn(
        "serving with a shared store (several instances behind a load balancer?) without trustedProxies or authenticate: every client behind the balancer would share its address, and so one share of maxSessionsPerClient, maxListenStreamsPerClient, limits.tasks.maxTasksPerOwner and per-address rate limits. Set trustedProxies to the balancer's addresses (MCP_TRUSTED_PROXIES with serveFromArgs) and have it send X-Forwarded-For, or authenticate clients.",
      );
    if (options.health !== undefined) this.#health = new HealthEndpoint(options.health);
    const { authorize } = options;
    this.#scopes = authorize && deps.scopes;
    const access = authorize && deps.scopes ? accessCheck(authorize, deps.scopes) : undefined;
    const limits = {
      maxSessions: options.maxSessions ?? 1000,
      maxSessionsPerClient: options.maxSessionsPerClient ?? 100,
      idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
      sessionIds: options.sessionIds,
      refused: deps.refused,
    };
    const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#paths = {
      mcp: options.path ?? '/mcp',
      sse: options.ssePath ?? '/sse',
      messages: options.messagesPath ?? '/messages',
    };
    const card = options.serverCard;
    if (card === true && !deps.card)
      throw new TypeError(
        'serverCard: true needs the server\'s registryName (reverse-DNS, e.g. "io.github.acme/weather") and description; set them in createServer',
      );
    if (card !== false && deps.card)
      this.#card = new ServerCardEndpoint(
        deps.card!,
        this.#paths.mcp,
        deps.cardVersions ?? deps.versions,
        typeof card === 'object' ? card : {},
        deps.cardMeta,
      );
    this.#streamable = new StreamableEndpoint({
      ...limits,
      connect: deps.connect,
      versions: deps.versions,
      eras: deps.eras,
      maxBodyBytes,
      responseMode: options.responseMode ?? 'auto',
      eventStore:
        options.eventStore === false
          ? undefined
          : (options.eventStore ?? options.store?.events ?? new MemoryEventStore()),
      shared: options.store,
      retryMs: options.retryMs,
      access,
    });
    this.#sse2024 = new Sse2024Endpoint({
      ...limits,
      connect: deps.connect,
      sessionEra: deps.eras.sessions,
      maxBodyBytes,
      messagesPath: this.#paths.messages,
      access,
    });
  }

  /** Open sessions of the Streamable HTTP endpoint (for tests and metrics). */
  get sessionCount(): number {
    return this.#streamable.sessionCount;
  }

  sweep(now?: number): number {
    return this.#streamable.sweep(now);
  }

  /**
   * Serves one HTTP request. Should serving fail before anything was answered, the client still
   * gets a JSON-RPC error (500, -32603) instead of an empty response; the failure is rethrown
   * for the adapter to log.
   */
  handle(req: HttpRequestView, res: HttpResponder): Promise<void> {
    const tracked = new TrackedResponder(res);
    let pending: Promise<void> | void;
    try {
      pending = this.#handle(req, tracked);
    } catch (error) {
      tracked.failed();
      return Promise.reject(error);
    }
    if (pending === undefined) return Promise.resolve();
    return pending.then(undefined, (error: unknown) => {
      tracked.failed();
      throw error;
    });
  }

  // The path of an unauthenticated MCP request is synchronous up to the transport's own await
  // (the body): each async function it passed through returned a promise that the next one
  // adopted, a few microtask jobs per request for nothing. The awaits live in #routed and
  // #authenticated, taken only when a hook is configured.
  #handle(sent: HttpRequestView, res: HttpResponder): Promise<void> | void {
    const req = this.#address.of(sent);
    const path = req.path;
    if (this.#health?.owns(path)) return this.#health.answer(req, res);
    if (this.#card?.owns(path)) {
      // Public metadata for any page (CORS *): the Host is checked (DNS rebinding), not Origin.
      const badHost = checkOrigin(req, { ...this.options, allowedOrigins: '*' });
      if (badHost) return sendError(res, badHost.status, -32000, badHost.message);
      return this.#card.answer(req, res);
    }
    if (this.options.routes && !this.#owns(path)) return this.#routed(req, res, path);
    return this.#guarded(req, res, path);
  }

  async #routed(req: HttpRequestView, res: HttpResponder, path: string): Promise<void> {
    // Public documents (discovery metadata) are for any page: only the Host is checked, not
    // the Origin, so browser clients on other sites can read them (the DNS-rebinding guard
    // protects the MCP endpoints, which act).
    const badHost = checkOrigin(req, { ...this.options, allowedOrigins: '*' });
    if (badHost) return sendError(res, badHost.status, -32000, badHost.message);
    const answer = await this.options.routes!(req);
    if (answer) return res.send(answer.status, { ...answer.headers }, answer.body);
    return this.#guarded(req, res, path);
  }

  /** The Origin check and CORS, then authentication and admission when configured. */
  #guarded(req: HttpRequestView, res: HttpResponder, path: string): Promise<void> | void {
    const refused = checkOrigin(req, this.options);
    if (refused) return sendError(res, refused.status, -32000, refused.message);
    const cors = corsHeaders(req, this.options.cors?.origins);
    if (req.method === 'OPTIONS' && cors) return res.send(204, cors);
    const reply = cors ? withHeaders(res, cors) : res;
    if (this.#admit || this.options.authenticate) return this.#authenticated(req, reply, path);
    return this.#route(req, reply, path, undefined);
  }

  async #authenticated(req: HttpRequestView, reply: HttpResponder, path: string): Promise<void> {
    const admit = this.#admit;
    if (admit?.beforeAuthentication && (await refusedAt(admit, req, undefined, reply))) return;
    let auth: unknown;
    if (this.options.authenticate) {
      const outcome = await this.options.authenticate(req);
      if ('reject' in outcome) {
        if (outcome.reject.log) this.#log(outcome.reject.log);
        return sendRejection(reply, outcome.reject);
      }
      auth = outcome.auth;
    }
    if (admit && !admit.beforeAuthentication && (await refusedAt(admit, req, auth, reply))) return;
    return this.#route(req, reply, path, auth);
  }

  #route(
    req: HttpRequestView,
    reply: HttpResponder,
    path: string,
    auth: unknown,
  ): Promise<void> | void {
    const principal = auth === undefined ? undefined : this.#principal?.(auth);
    const peer = {
      auth,
      remoteAddress: req.remoteAddress,
      principal,
      // Bound already: every view's `header` is passed around on its own (classify, preflight).
      header: req.header,
    };
    if (this.#scopes && req.method === 'POST' && path === this.#paths.mcp) {
      const access = this.#scopes.fromHeaders(req.header);
      const refusal = access && this.options.authorize!(auth, access);
      if (refusal) return sendRejection(reply, refusal);
    }
    if (path === this.#paths.mcp) return this.#streamable.handle(req, reply, peer);
    if (path === this.#paths.sse && req.method === 'GET')
      return this.#sse2024.open(req, reply, peer);
    if (path === this.#paths.messages && req.method === 'POST')
      return this.#sse2024.message(req, reply, peer);
    reply.send(404, { 'content-type': 'text/plain' }, 'Not Found');
  }

  #owns(path: string): boolean {
    return path === this.#paths.mcp || path === this.#paths.sse || path === this.#paths.messages;
  }

  async close(): Promise<void> {
    this.#health?.closing();
    await Promise.all([this.#streamable.close(), this.#sse2024.close()]);
  }
}

/** Answers 429 with `Retry-After` when `admit` makes `req` wait; says whether it did. */
async function refusedAt(
  admit: EndpointAdmission,
  req: HttpRequestView,
  auth: unknown,
  reply: HttpResponder,
): Promise<boolean> {
  const waitMs = await admit(req, auth);
  if (waitMs <= 0) return false;
  const seconds = Math.ceil(waitMs / 1000);
  sendError(reply, 429, -32000, `Too Many Requests: retry after ${seconds} s`, {
    'retry-after': String(seconds),
  });
  return true;
}

/** Checks every scoped member a parsed message uses; the first refusal wins. */
function accessCheck(
  authorize: NonNullable<HttpEndpointOptions['authorize']>,
  scopes: ScopeSource,
) {
  return (peer: Peer, message: unknown, headersDecided?: boolean): AuthRejection | undefined => {
    for (const access of scopes.fromMessage(message, headersDecided)) {
      const refusal = authorize(peer.auth, access);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

/**
 * A responder that knows whether it answered, so a failure after the answer is not answered
 * twice. A class rather than an object of two closures: one allocation per request.
 */
class TrackedResponder implements HttpResponder {
  #answered = false;

  constructor(private readonly res: HttpResponder) {}

  send(status: number, headers: HeaderMap, body?: string): void {
    this.#answered = true;
    this.res.send(status, headers, body);
  }

  stream(headers: HeaderMap): EventStreamSink {
    this.#answered = true;
    return this.res.stream(headers);
  }

  /** Serving failed: the client still gets a JSON-RPC error unless something was answered. */
  failed(): void {
    if (!this.#answered)
      sendError(
        this.res,
        500,
        JsonRpcCode.InternalError,
        'Internal error: the server failed while handling this request',
      );
  }
}

function withHeaders(res: HttpResponder, extra: Record<string, string>): HttpResponder {
  return {
    send: (status, headers, body) => res.send(status, headerMap(headers, extra), body),
    stream: (headers) => res.stream(headerMap(headers, extra)),
  };
}
