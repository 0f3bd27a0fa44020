import { Engine, parseFrame, type Channel, type InboundRequest } from '../jsonrpc/index.js';
import type { Era } from './eras/era.js';
import type { ErrorPolicy } from './error-ref.js';
import { LegacySession } from './eras/legacy/session.js';
import { eraOfMode, selectEra, UNDECIDED, type EraMode } from './eras/select.js';
import type { HubMember } from './hub.js';
import { listChangedNotification, type ChangedMember, type ListName } from './list-changed.js';
import { seesChange } from './list-visibility.js';
import { offerPassThrough } from './pass-through.js';
import { ownsTask, taskOwnerOf, type TaskSnapshot } from './tasks/index.js';
import { unencodableResult } from './unencodable.js';
import { connectionSessionKey } from './session-state/session-key.js';
import type { Scope, ServerCore } from './server-core.js';

export type { EraMode } from './eras/select.js';

/**
 * One client connection: an engine on a channel, the connection's era, and dispatch through the
 * era's method table. Both eras build the same request record, so every handler below is
 * shared; only the way in (session or envelope) and what the era encodes on the way out differ.
 */
export class ServerConnection implements HubMember {
  readonly engine: Engine;
  readonly #scope: Scope;
  /** Undefined until the first exchange that decides it (stdio); fixed from the start on HTTP. */
  #era: Era | undefined;
  /** The decided era's own frame parser, if it has one (see `Era.frameParser`). */
  #parse: ((text: string) => unknown) | undefined;
  /**
   * Requests served by another era than the connection's: a `server/discover` probe answered
   * before the connection decided. Their results and errors are still encoded by their own era.
   */
  #probes?: WeakMap<InboundRequest, Era>;
  /**
   * The stateless HTTP connection carries the requests of every client at once, told apart only
   * by their response streams; their ids are theirs alone, so none may be matched across them.
   */
  readonly #shared: boolean;
  /** The id, if one was given or minted: what the scope's getter has handed out so far. */
  readonly #knownSessionId: () => string | undefined;
  /**
   * What the first request carried to name its caller (a legacy session's requests all name the
   * same), from which who the connection's tasks belong to is worked out when a task changes.
   */
  #caller?: { readonly auth: unknown };
  #taskOwner?: string;
  /** What the latest request carried to name its caller: the scopes list changes are judged by. */
  #auth: unknown;

  constructor(core: ServerCore, channel: Channel, mode: EraMode = 'pin-on-first') {
    const session = new LegacySession();
    this.#era = eraOfMode(mode);
    this.#parse = this.#era?.frameParser?.();
    this.#shared = this.#era?.stateless === true;
    // Unless the server says, a client across a network sees no internal details; the local user does.
    const errors: ErrorPolicy = {
      logger: core.logger,
      maskInternalErrors: core.maskInternalErrors ?? channel.remote === true,
    };
    // Frames a transport parses itself (HTTP) never come through parseFrame.
    this.engine = new Engine(channel, {
      parseFrame: (text) => (this.#parse ? this.#parse(text) : parseFrame(text)),
      request: (request) => this.#request(request),
      notification: (method, params) =>
        core.middleware.idle
          ? this.#notification(method, params)
          : this.#observed(method, params as Record<string, unknown> | undefined),
      mapError: (error, request) => this.#eraOf(request).mapError(error, errors),
      unencodable: (request, value, error) =>
        unencodableResult(request, value, error, { policy: errors, era: this.#eraOf(request) }),
      encodeResult: (request, value) => {
        const encode = this.#eraOf(request).encodeResult;
        return encode ? encode(value, request.method, core) : value;
      },
      acceptBatch: () => this.#era?.acceptsBatch(session) ?? false,
      outboundAbandoned: (requestId, reason) =>
        this.engine.notify('notifications/cancelled', { requestId, reason: String(reason) }),
    });
    // A stdio connection's id is only needed by guards and audit entries: minted on first read,
    // since the first randomUUID loads Node's web crypto at start-up.
    let sessionId = channel.id;
    const engine = this.engine;
    const shared = this.#shared;
    this.#scope = {
      core,
      session,
      engine,
      errors,
      get sessionId() {
        return shared ? undefined : (sessionId ??= globalThis.crypto.randomUUID());
      },
    };
    this.#knownSessionId = () => sessionId;
    core.hub.add(this);
    this.engine.onInputEnded(() => this.#leave());
  }

  /** Stops serving: waits up to `graceMs` for calls in flight, then closes the channel. */
  async close(graceMs = 0): Promise<void> {
    this.#leave();
    await this.engine.close(graceMs);
  }

  /** The client is gone: no more events, and its subscriptions no longer count against the server's. */
  #leave(): void {
    const { core, session } = this.#scope;
    core.hub.delete(this);
    // An id nobody read keyed no state; minting one here would load web crypto on the way out.
    const sessionId = this.#knownSessionId();
    if (!this.#shared && sessionId !== undefined)
      core.sessionState.ended(connectionSessionKey(sessionId));
    core.guards.state.releaseSubscriptions(session.subscriptions.size);
    session.subscriptions.clear();
  }

  listChanged(list: ListName, changes?: readonly ChangedMember[]): void {
    if (
      this.#era?.pushesListChanged(this.#scope.session) &&
      seesChange(this.#scope.core, this.#auth, changes)
    )
      this.engine.notify(listChangedNotification(list).method);
  }

  resourceUpdated(uri: string): void {
    if (this.#scope.session.subscriptions.has(uri))
      this.engine.notify('notifications/resources/updated', { uri });
  }

  taskChanged(owner: string, snapshot: TaskSnapshot): void {
    if (!this.#caller) return;
    if (this.#taskOwner === undefined) {
      try {
        this.#taskOwner = taskOwnerOf(this.#caller.auth, this.#scope);
      } catch {
        return; // limits.identify failed on it: it owns nothing.
      }
    }
    if (!ownsTask(this.#taskOwner, owner)) return;
    const notice = this.#era?.tasks?.statusNotification?.(this.#scope.session, snapshot);
    if (notice) this.engine.notify(notice.method, notice.params);
  }

  /** The era that encodes what answers `request`: its probe's, else the connection's. */
  #eraOf(request: InboundRequest | undefined): Era {
    return (request && this.#probes?.get(request)) ?? this.#era ?? UNDECIDED;
  }

  #request(request: InboundRequest): unknown {
    let era = this.#era;
    let admitted: (() => void) | undefined;
    if (era === undefined) {
      const selected = selectEra(request);
      era = selected.era;
      if (selected.pins) {
        const decided = era;
        admitted = () => {
          this.#era = decided;
          this.#parse = decided.frameParser?.();
        };
      } else (this.#probes ??= new WeakMap()).set(request, era);
    }
    const { record, method } = era.admit(request, this.#scope, admitted);
    // A stateless connection carries every client's requests: none of their tasks is its own.
    if (!this.#shared) {
      this.#caller ??= { auth: record.auth };
      this.#auth = record.auth;
    }
    // A proxy answers the calls it passes on before dispatch (see pass-through.ts).
    const pass = this.#scope.core.passThrough;
    if (pass !== undefined) {
      const taken = offerPassThrough(pass, record, this.#scope);
      if (taken !== undefined) return taken;
    }
    return method.handle(request.params, record, this.#scope);
  }

  /** A notification under the server's middleware (what it throws is only logged: nobody answers). */
  #observed(method: string, params: Record<string, unknown> | undefined): void {
    const pipeline = this.#scope.core.middleware;
    pipeline
      .run(
        pipeline.steps(method, true),
        { method, params, scope: this.#scope },
        () => this.#notification(method, params),
        true,
      )
      .catch((error: unknown) =>
        this.#scope.core.logger.error(`middleware failed on ${method}`, error),
      );
  }

  #notification(method: string, params: unknown): void {
    const p = params as Record<string, unknown> | undefined;
    switch (method) {
      case 'notifications/initialized':
        this.#scope.session.initializedNotified = true;
        return;
      case 'notifications/cancelled': {
        // Stateless HTTP: closing the response stream is the cancel and no notification is
        // defined (basic/transports/streamable-http, "Cancellation"); one posted anyway is
        // accepted (202) and ignored, since matching its id could cancel another client's call.
        if (this.#shared) return;
        const id = p?.requestId;
        if (typeof id === 'string' || typeof id === 'number')
          this.engine.cancel(id, p?.reason ?? 'cancelled by client');
        return;
      }
      default:
        // Unknown notifications are ignored, as JSON-RPC requires (no response to notifications).
        return;
    }
  }
}
