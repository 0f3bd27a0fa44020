import {
  isValidId,
  JsonRpcCode,
  parseFrame,
  type Channel,
  type Peer,
  type WireError,
} from '../../jsonrpc/index.js';
import type { EventStore } from './event-store.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { RequestStream, type ResponseMode } from './request-stream.js';
import {
  accepts,
  acceptsJsonAndSse,
  isJsonContentType,
  sendError,
  sendRejection,
  sendUnsupportedMediaType,
} from './responses.js';
import type { AuthRejection } from './endpoint.js';
import { SessionChannel } from './session-channel.js';
import { SessionStore, clientOf, type SessionLimits, type StoredSession } from './session-store.js';
import { replayPeer, SharedSessions } from './shared-sessions.js';
import { isAnswer, StreamTail } from './stream-tail.js';
import { StoreUnavailableError, type SharedStore } from '../../stores/index.js';
import { sseEvent, SSE_HEADERS } from './sse.js';

/** What serving a session needs from the layer above: a connection on a channel. */
export type Connect = (
  channel: Channel,
  era?: 'legacy' | 'modern',
) => { close(graceMs?: number): Promise<void> };

/** A request refused before dispatch, with its HTTP status. */
export interface Refusal {
  readonly error: { code: number; message: string; data?: unknown };
  readonly status: number;
}

/**
 * How the protocol layer tells the eras apart on HTTP and checks a modern request before
 * dispatch (the transport only routes; what an envelope is stays in the protocol layer).
 */
export interface EraHooks {
  classify(
    message: unknown,
    header: (name: string) => string | undefined,
  ): 'legacy' | 'modern' | Refusal;
  preflight(
    message: Record<string, unknown>,
    header: (name: string) => string | undefined,
  ): Refusal | undefined;
  statusOf(error: { code: number; data?: unknown }): number;
  /** Seconds for `Retry-After` when an error refuses at a limit (429 / 503). */
  retryAfterOf?(error: { code: number; data?: unknown }): number | undefined;
}

/** A request refused because a limit was reached, for the audit log. */
export interface LimitRefusal {
  /** The option that sets the limit. */
  readonly limit: string;
  /** What was refused: the JSON-RPC method, or the HTTP request. */
  readonly method: string;
  readonly requestId?: string | number | null;
  readonly message: string;
  readonly peer: Peer;
}

export interface StreamableSettings extends SessionLimits {
  readonly connect: Connect;
  /** Told of every request refused at a limit (the audit log). */
  readonly refused?: (refusal: LimitRefusal) => void;
  readonly maxBodyBytes: number;
  readonly responseMode: ResponseMode;
  readonly eventStore?: EventStore;
  /**
   * Legacy sessions live here, shared with other instances (any instance serves any session);
   * this instance keeps a copy of each session it serves, dropped when idle.
   */
  readonly shared?: SharedStore;
  /** `retry:` sent with the priming event, in ms. */
  readonly retryMs?: number;
  /** Revisions accepted in `MCP-Protocol-Version`. */
  readonly versions: readonly string[];
  /** Serve 2026-07-28 requests statelessly beside the legacy sessions. */
  readonly eras?: EraHooks;
  /** Refuses a message using a member the peer's scopes do not cover (see `ScopeSource`). */
  readonly access?: (
    peer: Peer,
    message: unknown,
    headersDecided?: boolean,
  ) => AuthRejection | undefined;
}

interface Session extends StoredSession {
  readonly channel: SessionChannel;
  version?: string;
}

/** The answer for a request that needs the shared store while it cannot be reached. */
function sendStoreDown(
  res: HttpResponder,
  error: unknown,
  id: string | number | null = null,
): void {
  // Whatever a store throws (a custom event store too) is answered, never left hanging.
  const unavailable =
    error instanceof StoreUnavailableError
      ? error
      : new StoreUnavailableError(
          `the event store failed (${error instanceof Error ? error.message : String(error)})`,
        );
  sendError(
    res,
    503,
    BAD_REQUEST,
    `Service Unavailable: ${unavailable.message}; retry in ${unavailable.retryAfterS} s`,
    { 'retry-after': String(unavailable.retryAfterS) },
    id,
  );
}

// Session and transport errors are implementation-defined; these match SDK v2 (protocol.md §6.2).
const BAD_REQUEST = -32000;
const SESSION_NOT_FOUND = -32001;

const SESSION_HEADER = 'mcp-session-id';

/**
 * The Streamable HTTP endpoint of the legacy family (2025-03-26 … 2025-11-25): POST carries
 * messages, answered as JSON or SSE; GET opens the standalone stream (or resumes a lost one with
 * `Last-Event-ID`); DELETE ends the session. Sessions are minted at `initialize`.
 */
export class StreamableEndpoint {
  readonly #sessions: SessionStore<Session>;
  readonly #shared?: SharedSessions;
  /** Sessions being set up on this instance from the shared store, so concurrent requests share one copy. */
  readonly #hydrating = new Map<string, Promise<Session>>();

  constructor(private readonly settings: StreamableSettings) {
    this.#sessions = new SessionStore(settings);
    if (settings.shared) {
      const shared = new SharedSessions(settings.shared, settings);
      this.#shared = shared;
      // A client that only listens sends no requests: its open streams keep its session alive.
      this.#keepAlive = setInterval(
        () => {
          for (const id of this.#sessions.busyIds()) shared.keepAlive(id);
        },
        Math.max(1_000, Math.min(settings.idleTimeoutMs / 3, 60_000)),
      );
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  #keepAlive?: ReturnType<typeof setInterval>;

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Serves one request of `peer`, whose principal says which sessions it may reach. */
  async handle(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    switch (req.method) {
      case 'POST':
        return this.#post(req, res, peer);
      case 'GET':
        return this.#get(req, res, peer);
      case 'DELETE':
        return this.#delete(req, res, peer);
      default:
        res.send(405, { allow: 'GET, POST, DELETE' });
    }
  }

  async close(): Promise<void> {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    await this.#stateless?.channel.close();
    await this.#stateless?.connection.close();
    await this.#sessions.closeAll();
  }

  async #post(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    const contentType = req.header('content-type');
    if (!isJsonContentType(contentType)) return sendUnsupportedMediaType(res, contentType);
    const text = await req.text(this.settings.maxBodyBytes);
    if (text === undefined) {
      return sendError(
        res,
        413,
        BAD_REQUEST,
        `Payload Too Large: the body exceeds ${this.settings.maxBodyBytes} bytes`,
      );
    }
    let parsed: unknown;
    try {
      parsed = parseFrame(text);
    } catch (error) {
      return sendError(
        res,
        400,
        JsonRpcCode.ParseError,
        `Parse error: ${(error as Error).message}`,
      );
    }
    const era = this.settings.eras?.classify(parsed, req.header) ?? 'legacy';
    if (era !== 'legacy' && era !== 'modern')
      return sendError(
        res,
        era.status,
        era.error.code,
        era.error.message,
        {},
        idOf(parsed),
        era.error.data,
      );
    // Both eras: "The client MUST include an Accept header listing both application/json and
    // text/event-stream" (2025-11-25 and 2026-07-28 transports, "Sending Messages"). Either may
    // be answered, and the client cannot know which in advance, so anything less is a 406.
    if (!acceptsJsonAndSse(req.header('accept'))) {
      return sendError(
        res,
        406,
        BAD_REQUEST,
        'Not Acceptable: Accept must include application/json and text/event-stream',
        {},
        idOf(parsed),
      );
    }
    if (era === 'modern')
      return this.#modernPost(req, res, peer, text, parsed as Record<string, unknown>);
    const denied = this.settings.access?.(peer, parsed);
    if (denied) return sendRejection(res, denied, idOf(parsed));
    const sessionId = req.header(SESSION_HEADER);
    let session: Session | undefined;
    if (sessionId === undefined) {
      if (!isInitialize(parsed)) {
        return sendError(
          res,
          400,
          BAD_REQUEST,
          'Bad Request: Mcp-Session-Id header is required (send initialize first)',
          {},
          idOf(parsed),
        );
      }
      if (this.#shared) {
        try {
          session = await this.#openShared(peer, text, idOf(parsed), res);
        } catch (error) {
          return sendStoreDown(res, error, idOf(parsed));
        }
        if (!session) return;
      }
      const refusal = session ? undefined : this.#sessions.admit(peer);
      if (refusal) {
        this.settings.refused?.({
          limit: refusal.limit,
          method: 'initialize',
          requestId: idOf(parsed),
          message: refusal.message,
          peer,
        });
        return sendError(
          res,
          refusal.status,
          BAD_REQUEST,
          refusal.message,
          { 'retry-after': String(refusal.retryAfterS) },
          idOf(parsed),
        );
      }
      session ??= this.#open(peer);
    } else {
      // In memory the lookup stays synchronous: no await on the hot path of a legacy call.
      if (!this.#shared) {
        session = this.#sessions.get(sessionId, peer.principal);
      } else {
        try {
          session = await this.#find(sessionId, peer);
        } catch (error) {
          return sendStoreDown(res, error, idOf(parsed));
        }
      }
      if (!session)
        return sendError(
          res,
          404,
          SESSION_NOT_FOUND,
          'Session not found (it expired or was deleted); initialize again',
          {},
          idOf(parsed),
        );
      const version = req.header('mcp-protocol-version');
      if (version !== undefined && !this.settings.versions.includes(version)) {
        return sendError(
          res,
          400,
          BAD_REQUEST,
          `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${this.settings.versions.join(', ')})`,
          {},
          idOf(parsed),
        );
      }
    }
    const { id } = session.channel;
    const expectsAnswer = carriesRequest(parsed);
    if (this.#shared && sessionId !== undefined) {
      try {
        await this.#shared.relay(id, text, parsed, expectsAnswer);
      } catch (error) {
        return sendStoreDown(res, error, idOf(parsed));
      }
    }
    const stream = new RequestStream(
      // Stream ids name the instance too: each instance counts its own streams of a shared session.
      `${id}_${this.#shared ? `${this.#shared.nodeId}.` : ''}${this.#streamSeq++}`,
      res,
      { [SESSION_HEADER]: id },
      {
        mode: this.settings.responseMode,
        store: this.settings.eventStore,
        sessionId: id,
        // Priming lets a client resume a stream that broke before its first event (2025-11-25).
        priming: true,
        expectsAnswer,
        retryMs: this.settings.retryMs,
      },
    );
    session.channel.post(text, parsed, stream, peer, req.onAbort);
  }

  #streamSeq = 0;
  #stateless?: { channel: SessionChannel; connection: { close(): Promise<void> } };

  /** 2026-07-28: no session; each request is checked, then served on one shared connection. */
  #modernPost(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    text: string,
    message: Record<string, unknown>,
  ): void {
    const eras = this.settings.eras!;
    const refusal = eras.preflight(message, req.header);
    if (refusal)
      return sendError(
        res,
        refusal.status,
        refusal.error.code,
        refusal.error.message,
        {},
        idOf(message),
        refusal.error.data,
      );
    // The routing headers decided calls, reads and prompts before the body was read; what they
    // cannot name (a completion's member) is decided here, now that the body agrees with them.
    const denied = this.settings.access?.(peer, message, true);
    if (denied) return sendRejection(res, denied, idOf(message));
    if (!this.#stateless) {
      const channel = new SessionChannel('modern', undefined);
      this.#stateless = { channel, connection: this.settings.connect(channel, 'modern') };
    }
    const stream = new RequestStream(
      `modern_${this.#streamSeq++}`,
      res,
      {},
      {
        headersOf: (error) => retryAfter(error, eras),
        mode: this.settings.responseMode,
        priming: false,
        expectsAnswer: carriesRequest(message),
        statusOf: (error) => eras.statusOf(error),
      },
    );
    this.#stateless.channel.post(text, message, stream, peer, req.onAbort, false);
  }

  #open(owner: Peer, id?: string, unfollow?: Promise<() => void>): Session {
    const shared = this.#shared !== undefined;
    return this.#sessions.add(
      owner,
      (id) => {
        const channel = new SessionChannel(id, this.settings.eventStore, shared);
        const connection = this.settings.connect(channel, 'legacy');
        return {
          channel,
          lastSeen: Date.now(),
          get busy() {
            return channel.busy;
          },
          close: async () => {
            void unfollow?.then((stop) => stop()).catch(() => undefined);
            await channel.close();
            await connection.close();
          },
        };
      },
      id,
    );
  }

  /** Opens a session in the shared store (cluster-wide caps), then this instance's copy of it. */
  async #openShared(
    peer: Peer,
    initialize: string,
    requestId: string | number | null,
    res: HttpResponder,
  ): Promise<Session | undefined> {
    const shared = this.#shared!;
    const id = globalThis.crypto.randomUUID();
    const limit = await shared.open(id, peer, clientOf(peer), initialize);
    if (limit) {
      const perClient = limit === 'maxSessionsPerClient';
      const max = perClient ? this.settings.maxSessionsPerClient : this.settings.maxSessions;
      const message = perClient
        ? `Too Many Requests: this client already has ${max} sessions across the cluster (maxSessionsPerClient); end one with DELETE, or raise maxSessionsPerClient in the HTTP options`
        : `Service Unavailable: the cluster holds ${max} sessions (maxSessions); retry later, or raise maxSessions in the HTTP options`;
      this.settings.refused?.({ limit, method: 'initialize', requestId, message, peer });
      sendError(
        res,
        perClient ? 429 : 503,
        BAD_REQUEST,
        message,
        { 'retry-after': String(Math.max(1, Math.ceil(this.settings.idleTimeoutMs / 60_000))) },
        requestId,
      );
      return undefined;
    }
    return this.#follow(peer, id, []);
  }

  /**
   * The session `id` if it serves `peer`: this instance's copy, checked against the shared
   * store (one round trip, which also restarts its idle expiry), or a copy made from the store.
   */
  async #find(id: string, peer: Peer): Promise<Session | undefined> {
    const local = this.#sessions.get(id, peer.principal);
    if (!this.#shared) return local;
    const record = await this.#shared.find(id, peer.principal);
    if (!record) {
      // Ended elsewhere, or expired: this copy goes too.
      if (local) void this.#sessions.remove(id);
      return undefined;
    }
    if (local) return local;
    let pending = this.#hydrating.get(id);
    if (!pending) {
      pending = this.#follow(replayPeer(record, peer), id, record.replay);
      this.#hydrating.set(id, pending);
      void pending.finally(() => this.#hydrating.delete(id)).catch(() => undefined);
    }
    return pending;
  }

  /**
   * This instance's copy of shared session `id`: a connection set up by replaying the session's
   * state-setting messages, which hears from then on what the client sends to other instances.
   */
  async #follow(owner: Peer, id: string, replay: readonly string[]): Promise<Session> {
    let session: Session | undefined;
    const unfollow = this.#shared!.follow(id, {
      inbound: (text) => session?.channel.replay(text, owner),
      outbound: (frame) => session?.channel.forwarded(frame),
      heldElsewhere: () => session?.channel.handOver(),
      ended: () => void this.#sessions.remove(id),
    });
    await unfollow;
    session = this.#open(owner, id, unfollow);
    const shared = this.#shared!;
    session.channel.tailLost((streamId, frame) => shared.publishFrame(streamId, frame));
    session.channel.keepIf(() => shared.holds(id));
    session.channel.forwardTo((frame) => shared.forward(id, frame));
    for (const frame of replay) session.channel.replay(frame, owner);
    return session;
  }

  async #get(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    // Without a session there is nothing to stream: 2026-07-28 has no GET at all.
    if (req.header(SESSION_HEADER) === undefined)
      return sendError(res, 405, BAD_REQUEST, 'Method not allowed.', { allow: 'POST' });
    if (!accepts(req.header('accept'), 'text/event-stream')) {
      return sendError(
        res,
        406,
        BAD_REQUEST,
        'Not Acceptable: Accept must include text/event-stream',
      );
    }
    const session = await this.#session(req, res, peer);
    if (!session) return;
    const headers = { ...SSE_HEADERS, [SESSION_HEADER]: session.channel.id };
    const lastEventId = req.header('last-event-id');
    const store = this.settings.eventStore;
    if (lastEventId !== undefined && store) {
      let missed: Awaited<ReturnType<EventStore['after']>>;
      let tail: StreamTail | undefined;
      try {
        tail = await this.#tailOf(session, lastEventId);
        missed = await store.after(lastEventId);
      } catch (error) {
        tail?.stop();
        return sendStoreDown(res, error);
      }
      // Only this session's own streams resume here; another's event id is as unknown as a made-up one.
      if (missed?.streamId.startsWith(`${session.channel.id}_`)) {
        if (missed.streamId === session.channel.standaloneId && this.#shared) {
          // Taken over before the log is read again below: events the previous holder keeps
          // until it learns of it are in the log by then, and none is kept twice.
          try {
            await this.#shared.hold(session.channel.id);
            missed = (await store.after(lastEventId)) ?? missed;
          } catch (error) {
            tail?.stop();
            return sendStoreDown(res, error);
          }
        }
        const sink = res.stream(headers);
        for (const { id, frame } of missed.frames) sink.write(sseEvent(frame, id));
        const live = session.channel.stream(missed.streamId);
        if (live) live.attach(sink);
        else if (missed.streamId === session.channel.standaloneId)
          session.channel.openStandalone(sink);
        else if (tail) {
          const last = missed.frames.at(-1);
          tail.pipe(sink, last?.id ?? lastEventId, last !== undefined && isAnswer(last.frame));
          return;
        } else sink.end();
        tail?.stop();
        return;
      }
      tail?.stop();
    }
    if (session.channel.hasStandalone) {
      return sendError(
        res,
        409,
        BAD_REQUEST,
        'Conflict: this session already has a standalone SSE stream',
      );
    }
    if (this.#shared) {
      try {
        await this.#shared.hold(session.channel.id);
      } catch (error) {
        return sendStoreDown(res, error);
      }
    }
    session.channel.openStandalone(res.stream(headers));
  }

  async #delete(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    if (req.header(SESSION_HEADER) === undefined)
      return sendError(res, 405, BAD_REQUEST, 'Method not allowed.', { allow: 'POST' });
    const session = await this.#session(req, res, peer);
    if (!session) return;
    if (this.#shared) {
      try {
        await this.#shared.end(session.channel.id);
      } catch (error) {
        return sendStoreDown(res, error);
      }
    }
    await this.#sessions.remove(session.channel.id);
    res.send(200, {});
  }

  async #session(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
  ): Promise<Session | undefined> {
    const id = req.header(SESSION_HEADER);
    if (id === undefined) {
      sendError(res, 400, BAD_REQUEST, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    let session: Session | undefined;
    try {
      session = await this.#find(id, peer);
    } catch (error) {
      sendStoreDown(res, error);
      return undefined;
    }
    if (!session)
      sendError(
        res,
        404,
        SESSION_NOT_FOUND,
        'Session not found (it expired or was deleted); initialize again',
      );
    return session;
  }

  /**
   * For a `Last-Event-ID` of a shared session's request stream that is not running here: hears
   * its live frames from the instance running it, subscribed before the stored ones are read.
   */
  async #tailOf(session: Session, lastEventId: string): Promise<StreamTail | undefined> {
    const shared = this.#shared;
    if (!shared) return undefined;
    const streamId = lastEventId.slice(0, lastEventId.lastIndexOf(':'));
    const { channel } = session;
    if (!streamId.startsWith(`${channel.id}_`) || streamId === channel.standaloneId)
      return undefined;
    if (channel.stream(streamId)) return undefined;
    return StreamTail.open((listener) => shared.tail(streamId, listener));
  }

  /** Reaps idle sessions now (tests; normally a timer does it). */
  sweep(now = Date.now()): number {
    return this.#sessions.sweep(now);
  }
}

// A JSON-RPC id is a string or an integer; anything else (1.5, an object) is answered with null.
function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return isValidId(id) ? id : null;
}

// An error refused at a limit says when to come back.
function retryAfter(error: WireError, eras: EraHooks): Record<string, string> | undefined {
  const seconds = eras.retryAfterOf?.(error);
  return seconds === undefined ? undefined : { 'retry-after': String(seconds) };
}

/** Whether a body holds a request (answered on 200), not only notifications or responses (202). */
function carriesRequest(message: unknown): boolean {
  const isRequest = (m: unknown) =>
    typeof m === 'object' &&
    m !== null &&
    'id' in m &&
    typeof (m as { method?: unknown }).method === 'string';
  return Array.isArray(message) ? message.some(isRequest) : isRequest(message);
}

function isInitialize(message: unknown): boolean {
  const isInit = (m: unknown) =>
    typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(message) ? message.some(isInit) : isInit(message);
}
