import type { Peer } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { BAD_REQUEST, SESSION_NOT_FOUND, sendError, sendStoreDown } from './responses.js';
import { SessionChannel } from './session-channel.js';
import { SessionStore, clientOf, newSessionId, type StoredSession } from './session-store.js';
import { framesOf, replayPeer, SharedSessions } from './shared-sessions.js';
import type { StreamableSettings } from './streamable-settings.js';

/** One Streamable HTTP session as this instance serves it. */
export interface Session extends StoredSession {
  readonly channel: SessionChannel;
  version?: string;
}

export const SESSION_HEADER = 'mcp-session-id';

const NOT_FOUND = 'Session not found (it expired or was deleted); initialize again';

/**
 * The legacy sessions of the Streamable HTTP endpoint: opened at `initialize` (under the caps),
 * found by id for the principal they are bound to, reaped when idle. With a shared store they
 * live there too, and this instance keeps a copy of each one it serves, made by replaying the
 * session's state-setting messages.
 */
export class StreamableSessions {
  readonly #local: SessionStore<Session>;
  /** Present when sessions are shared with other instances. */
  readonly shared?: SharedSessions;
  /** Sessions being set up on this instance from the shared store, so concurrent requests share one copy. */
  readonly #hydrating = new Map<string, Promise<Session | undefined>>();
  readonly #keepAlive?: ReturnType<typeof setInterval>;

  constructor(private readonly settings: StreamableSettings) {
    this.#local = new SessionStore(settings);
    if (settings.shared) {
      const shared = new SharedSessions(settings.shared, settings);
      this.shared = shared;
      // A client that only listens sends no requests: its open streams keep its session alive.
      this.#keepAlive = setInterval(() => {
        for (const id of this.#local.busyIds()) shared.keepAlive(id);
      }, shared.keepAliveMs);
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  get size(): number {
    return this.#local.size;
  }

  /**
   * A new in-memory session for `peer` (room made under the caps), or `undefined` once the
   * refusal is answered.
   */
  openLocal(
    peer: Peer,
    requestId: string | number | null,
    res: HttpResponder,
  ): Session | undefined {
    const refusal = this.#local.admit(peer);
    if (!refusal) return this.#open(peer);
    this.settings.refused?.({
      limit: refusal.limit,
      method: 'initialize',
      requestId,
      message: refusal.message,
      peer,
    });
    sendError(
      res,
      refusal.status,
      BAD_REQUEST,
      refusal.message,
      { 'retry-after': String(refusal.retryAfterS) },
      requestId,
    );
    return undefined;
  }

  /**
   * Opens a session in the shared store (cluster-wide caps), then this instance's copy of it;
   * `undefined` once a refusal or an unreachable store is answered.
   */
  async openShared(
    peer: Peer,
    initialize: string,
    requestId: string | number | null,
    res: HttpResponder,
  ): Promise<Session | undefined> {
    const shared = this.shared!;
    const id = newSessionId(this.settings);
    try {
      const limit = await shared.open(id, peer, clientOf(peer), initialize);
      if (!limit) return await this.#follow(peer, id, false);
      if (limit === 'maxSessionRecordBytes') {
        recordTooLarge(res, 'initialize', requestId);
        return undefined;
      }
      const perClient = limit === 'maxSessionsPerClient';
      const max = perClient ? this.settings.maxSessionsPerClient : this.settings.maxSessions;
      const message = perClient
        ? `Too Many Requests: this client already has ${max} sessions with open streams across the cluster (maxSessionsPerClient); end one with DELETE, or raise maxSessionsPerClient in the HTTP options`
        : `Service Unavailable: the cluster's ${max} sessions all have open streams (maxSessions); retry later, or raise maxSessions in the HTTP options`;
      this.settings.refused?.({ limit, method: 'initialize', requestId, message, peer });
      sendError(
        res,
        perClient ? 429 : 503,
        BAD_REQUEST,
        message,
        { 'retry-after': String(Math.max(1, Math.ceil(this.settings.idleTimeoutMs / 60_000))) },
        requestId,
      );
    } catch (error) {
      sendStoreDown(res, error, requestId);
    }
    return undefined;
  }

  /** This instance's in-memory session `id`, if it serves `principal` (no store asked). */
  local(id: string, principal: string | undefined): Session | undefined {
    return this.#local.get(id, principal);
  }

  /**
   * The session `id` if it serves `peer`: this instance's copy, checked against the shared
   * store (one round trip, which also restarts its idle expiry), or a copy made from the store.
   */
  async find(id: string, peer: Peer): Promise<Session | undefined> {
    const local = this.#local.get(id, peer.principal);
    if (!this.shared) return local;
    const record = await this.shared.find(id, peer.principal);
    if (!record) {
      // Ended elsewhere, or expired: this copy goes too.
      if (local) void this.#local.remove(id);
      return undefined;
    }
    if (local) return local;
    let pending = this.#hydrating.get(id);
    if (!pending) {
      pending = this.#follow(peer, id, true);
      this.#hydrating.set(id, pending);
      void pending.finally(() => this.#hydrating.delete(id)).catch(() => undefined);
    }
    return pending;
  }

  /** The session a GET or DELETE names in its header, or `undefined` once the error is answered. */
  async ofRequest(
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
      session = await this.find(id, peer);
    } catch (error) {
      sendStoreDown(res, error);
      return undefined;
    }
    if (!session) sendError(res, 404, SESSION_NOT_FOUND, NOT_FOUND);
    return session;
  }

  /** The 404 for a session id that names no session `peer` may reach. */
  notFound(res: HttpResponder, requestId: string | number | null): void {
    sendError(res, 404, SESSION_NOT_FOUND, NOT_FOUND, {}, requestId);
  }

  /** Closes and forgets this instance's copy of session `id`. */
  remove(id: string): Promise<boolean> {
    return this.#local.remove(id);
  }

  /** Reaps idle sessions now (tests; normally a timer does it). */
  sweep(now: number): number {
    return this.#local.sweep(now);
  }

  async close(): Promise<void> {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    await this.#local.closeAll();
  }

  #open(owner: Peer, id?: string, unfollow?: Promise<() => void>): Session {
    const shared = this.shared !== undefined;
    return this.#local.add(
      owner,
      (id) => {
        const channel = new SessionChannel(id, this.settings.eventStore, shared);
        const connection = this.settings.connect(channel, this.settings.eras.sessions);
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

  /**
   * This instance's copy of shared session `id`: a connection set up by replaying the session's
   * state-setting messages, which hears from then on what the client sends to other instances.
   * The record is read again once the bus subscription is in place, and what the bus brings
   * before the copy exists is kept and fed after it: a change another instance makes between
   * the first read and the subscription (a resources/subscribe as the GET stream opens here)
   * would otherwise be in neither. Replaying a state change twice is harmless. A session this
   * instance has just opened (`fromRecord` false) has nothing to replay: its `initialize` is
   * being served here.
   */
  async #follow(peer: Peer, id: string, fromRecord: boolean): Promise<Session | undefined> {
    const shared = this.shared!;
    let session: Session | undefined;
    const early: string[] = [];
    const unfollow = shared.follow(id, {
      inbound: (text) => (session ? session.channel.replay(text, owner) : early.push(text)),
      outbound: (frame) => session?.channel.forwarded(frame),
      heldElsewhere: () => session?.channel.handOver(),
      ended: () => void this.#local.remove(id),
    });
    const stop = await unfollow;
    let owner = peer;
    let replay: readonly string[] = [];
    if (fromRecord) {
      const record = await shared.find(id, peer.principal).catch((error: unknown) => {
        stop();
        throw error;
      });
      if (!record) {
        stop();
        return undefined;
      }
      owner = replayPeer(record, peer);
      replay = framesOf(record.state);
    }
    session = this.#open(owner, id, unfollow);
    session.channel.tailLost((streamId, frame) => shared.publishFrame(streamId, frame));
    session.channel.keepIf(() => shared.holds(id));
    session.channel.forwardTo((frame) => shared.forward(id, frame));
    for (const frame of [...replay, ...early]) session.channel.replay(frame, owner);
    return session;
  }
}

/**
 * The answer to a message whose state the shared store refused to keep: the session's record
 * would outgrow the store's `maxSessionRecordBytes`. Retrying does not help; the client must
 * send less (a smaller `initialize`, fewer or shorter subscriptions).
 */
export function recordTooLarge(
  res: HttpResponder,
  method: string,
  requestId: string | number | null,
): void {
  sendError(
    res,
    413,
    BAD_REQUEST,
    `Payload Too Large: the session's state after this ${method} would exceed what the shared store keeps per session (maxSessionRecordBytes of the store); unsubscribe from some resources, use shorter URIs, or raise maxSessionRecordBytes`,
    {},
    requestId,
    { limit: 'maxSessionRecordBytes' },
  );
}
