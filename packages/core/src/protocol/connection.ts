import { Engine, JsonRpcError, type Channel, type InboundRequest } from '../jsonrpc/index.js';
import { ErrorCode } from './error-codes.js';
import { mapError } from './error-mapping.js';
import type { HubMember, ListName } from './hub.js';
import { LegacySession } from './legacy-session.js';
import { METHODS } from './method-table.js';
import { featuresOf } from './revisions.js';
import type { Scope, ServerCore } from './server-core.js';

/**
 * One client connection: an engine on a channel, the connection's era state, and dispatch
 * through the method table. Holds no behaviour of any method family itself.
 */
export class ServerConnection implements HubMember {
  readonly engine: Engine;
  readonly #scope: Scope;

  constructor(core: ServerCore, channel: Channel) {
    const session = new LegacySession();
    this.engine = new Engine(channel, {
      request: (request) => this.#request(request),
      notification: (method, params) => this.#notification(method, params),
      mapError: (error) => mapError(error, core.logger),
      acceptBatch: () => {
        const version = session.handshake?.protocolVersion;
        return version !== undefined && featuresOf(version).batching;
      },
      outboundAbandoned: (requestId, reason) =>
        this.engine.notify('notifications/cancelled', { requestId, reason: String(reason) }),
    });
    this.#scope = { core, session, engine: this.engine };
    core.hub.add(this);
    this.engine.onInputEnded(() => core.hub.delete(this));
  }

  /** Stops serving: waits up to `graceMs` for calls in flight, then closes the channel. */
  async close(graceMs = 0): Promise<void> {
    this.#scope.core.hub.delete(this);
    await this.engine.close(graceMs);
  }

  listChanged(list: ListName): void {
    if (this.#scope.session.handshake) this.engine.notify(`notifications/${list}/list_changed`);
  }

  resourceUpdated(uri: string): void {
    if (this.#scope.session.subscriptions.has(uri)) this.engine.notify('notifications/resources/updated', { uri });
  }

  #request(request: InboundRequest): unknown {
    const method = METHODS.get(request.method);
    if (!method) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    // JSON-RPC allows positional params; every MCP method takes an object.
    if (Array.isArray(request.params)) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: params must be an object');
    const record = this.#scope.session.record(request, !method.beforeInitialize);
    return method.handle(request.params, record, this.#scope);
  }

  #notification(method: string, params: unknown): void {
    const p = params as Record<string, unknown> | undefined;
    switch (method) {
      case 'notifications/initialized':
        this.#scope.session.initializedNotified = true;
        return;
      case 'notifications/cancelled': {
        const id = p?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.engine.cancel(id, p?.reason ?? 'cancelled by client');
        return;
      }
      default:
        // Unknown notifications are ignored, as JSON-RPC requires (no response to notifications).
        return;
    }
  }
}
