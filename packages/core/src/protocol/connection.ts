import {
  Engine,
  JsonRpcError,
  parseFrame,
  type Channel,
  type InboundRequest,
} from '../jsonrpc/index.js';
import { ErrorCode } from './error-codes.js';
import { mapError } from './error-mapping.js';
import type { HubMember } from './hub.js';
import { listChangedNotification, type ListName } from './list-changed.js';
import { LegacySession } from './legacy-session.js';
import { METHODS, MODERN_METHODS } from './method-table.js';
import { EnvelopeMemo } from './modern/envelope-memo.js';
import {
  hasEnvelope,
  missingEnvelope,
  unsupportedVersion,
  type Envelope,
} from './modern/envelope.js';
import { modernRecord } from './modern/modern-record.js';
import { modernResult } from './modern/result-envelope.js';
import { featuresOf } from './revisions.js';
import { unencodableResult } from './unencodable.js';
import type { MethodSpec, Scope, ServerCore } from './server-core.js';

/**
 * How a connection decides its era (protocol.md §1): stdio pins on the first exchange that is
 * not `server/discover`; an HTTP session is legacy by construction; the stateless HTTP path is
 * modern by construction.
 */
export type EraMode = 'pin-on-first' | 'legacy' | 'modern';

type Era = 'unpinned' | 'legacy' | 'modern';

const MODERN = 'modern';

/**
 * One client connection: an engine on a channel, the connection's era, and dispatch through the
 * era's method table. Both eras build the same request record, so every handler below is
 * shared; only the way in (session or envelope) and the result envelope differ.
 */
export class ServerConnection implements HubMember {
  readonly engine: Engine;
  readonly #scope: Scope;
  readonly #memo = new EnvelopeMemo();
  #era: Era;
  /**
   * The stateless 2026-07-28 HTTP connection carries the requests of every client at once, told
   * apart only by their response streams; their ids are theirs alone, so none may be matched
   * across them.
   */
  readonly #shared: boolean;

  constructor(core: ServerCore, channel: Channel, mode: EraMode = 'pin-on-first') {
    const session = new LegacySession();
    this.#era = mode === 'pin-on-first' ? 'unpinned' : mode;
    this.#shared = mode === 'modern';
    // Frames a transport parses itself (HTTP) never come through here; on a legacy connection
    // there is no envelope to skip.
    this.engine = new Engine(channel, {
      parseFrame: (text) => (this.#era === 'legacy' ? parseFrame(text) : this.#memo.parse(text)),
      request: (request) => this.#request(request),
      notification: (method, params) =>
        core.middleware.idle
          ? this.#notification(method, params)
          : this.#observed(method, params as Record<string, unknown> | undefined),
      mapError: (error) => mapError(error, core, this.#era === 'modern' ? 'modern' : 'legacy'),
      unencodable: (request, value, error) =>
        unencodableResult(request, value, error, {
          policy: core,
          era: request.encoding === MODERN ? 'modern' : 'legacy',
        }),
      encodeResult: (request, value) =>
        request.encoding === MODERN ? modernResult(value, request.method, core) : value,
      acceptBatch: () => {
        const version = session.handshake?.protocolVersion;
        return this.#era === 'legacy' && version !== undefined && featuresOf(version).batching;
      },
      outboundAbandoned: (requestId, reason) =>
        this.engine.notify('notifications/cancelled', { requestId, reason: String(reason) }),
    });
    // A stdio connection's id is only needed by guards and audit entries: minted on first read,
    // since the first randomUUID loads Node's web crypto at start-up.
    let sessionId = channel.id;
    const engine = this.engine;
    this.#scope = {
      core,
      session,
      engine,
      get sessionId() {
        return mode === 'modern' ? undefined : (sessionId ??= globalThis.crypto.randomUUID());
      },
    };
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
    core.guards.state.releaseSubscriptions(session.subscriptions.size);
    session.subscriptions.clear();
  }

  listChanged(list: ListName): void {
    // Legacy sessions get unsolicited notifications; modern clients only on listen streams.
    if (this.#era === 'legacy' && this.#scope.session.handshake)
      this.engine.notify(listChangedNotification(list).method);
  }

  resourceUpdated(uri: string): void {
    if (this.#scope.session.subscriptions.has(uri))
      this.engine.notify('notifications/resources/updated', { uri });
  }

  #request(request: InboundRequest): unknown {
    const era = this.#era;
    if (era !== 'legacy') {
      // Members the memo put back were read and checked as an envelope once, when first met.
      const known = this.#memo.envelopeOf(request.params);
      const enveloped = known !== undefined || hasEnvelope(request.params);
      if (era === 'modern' || enveloped || request.method === 'server/discover')
        return this.#modern(request, enveloped, known);
    }
    this.#era = 'legacy';
    const method = this.#method(METHODS, request);
    const record = this.#scope.session.record(request, !method.beforeInitialize);
    return method.handle(request.params, record, this.#scope);
  }

  #modern(request: InboundRequest, enveloped: boolean, known: Envelope | undefined): unknown {
    if (!enveloped) {
      // A legacy client talking to a connection already pinned to 2026-07-28.
      if (request.method === 'initialize')
        throw unsupportedVersion(request.params?.protocolVersion);
      throw missingEnvelope();
    }
    const record = modernRecord(request, known);
    if (this.#era === 'unpinned' && request.method !== 'server/discover') this.#era = 'modern';
    const method = this.#method(MODERN_METHODS, request);
    // The engine hands the result back to encodeResult, which adds the 2026-07-28 envelope.
    request.encoding = MODERN;
    return method.handle(request.params, record, this.#scope);
  }

  #method(table: ReadonlyMap<string, MethodSpec>, request: InboundRequest): MethodSpec {
    const method = table.get(request.method);
    if (!method)
      throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    // JSON-RPC allows positional params; every MCP method takes an object.
    if (Array.isArray(request.params))
      throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: params must be an object');
    return method;
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
        // 2026-07-28 over HTTP: closing the response stream is the cancel and no notification
        // is defined (basic/transports/streamable-http, "Cancellation"); one posted anyway is
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
