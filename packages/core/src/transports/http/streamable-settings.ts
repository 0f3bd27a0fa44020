import type { Channel, Peer } from '../../jsonrpc/index.js';
import type { SharedStore } from '../../stores/index.js';
import type { AuthRejection } from './auth-rejection.js';
import type { EventStore } from './event-store.js';
import type { ResponseMode } from './request-stream.js';
import type { SessionLimits } from './session-store.js';

/**
 * The protocol era a request was routed to: the protocol layer's `Era` object, which the
 * transport hands back to `connect` as it got it. Of it, the transport reads only whether its
 * requests carry their own state (served on one shared connection) or live in a session.
 */
export interface RoutedEra {
  readonly stateless: boolean;
}

/** What serving a session needs from the layer above: a connection on a channel, in `era`. */
export type Connect = (
  channel: Channel,
  era: RoutedEra,
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
  classify(message: unknown, header: (name: string) => string | undefined): RoutedEra | Refusal;
  /** The era of every session (Streamable HTTP sessions and HTTP+SSE streams). */
  readonly sessions: RoutedEra;
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

/** Refuses a message using a member the peer's scopes do not cover (see `ScopeSource`). */
export type AccessCheck = (
  peer: Peer,
  message: unknown,
  headersDecided?: boolean,
) => AuthRejection | undefined;

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
  /** Which era each request belongs to: sessions, or stateless requests beside them. */
  readonly eras: EraHooks;
  readonly access?: AccessCheck;
}
