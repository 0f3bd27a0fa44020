import type { Channel } from './jsonrpc/index.js';
import type { SharedStore } from './stores/index.js';
import type { ServerCardData } from './transports/http/index.js';
import type {
  EraMode,
  Identify,
  LimitRefusalEvent,
  Logger,
  RateLimitStore,
  ToolLookup,
} from './protocol/index.js';

/** What core's transports hold of one connection a {@link Servable} opened. */
export interface ServedConnection {
  /** What stdio drives: its graceful close, and the end of the client's input. */
  readonly engine: {
    /** Closes the connection, letting calls in flight finish within `graceMs`. */
    close(graceMs?: number): Promise<void>;
    /** Calls `listener` once the client's input has ended. */
    onInputEnded(listener: () => void): void;
  };
  /** Stops serving, letting calls in flight finish within `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/**
 * What core's transports need of a server: `serveStdio`, `createHttpHandler`, `serveHttp` and
 * `serveFromArgs` accept any object of this shape, and `McpFwServer` is one. Implement it to put
 * something else behind core's transports with their framing, sessions and security checks
 * (a relay to another process, as `mcp-fw dev` does).
 *
 * @example
 * ```ts
 * import type { Servable } from '@mcp-fw/core/transport';
 * import { serveStdio } from '@mcp-fw/core/stdio';
 *
 * const relay: Servable = {
 *   connect: (channel, mode) => openRelaySession(channel, mode),
 *   registry: { tool: (name) => lastToolList.find((t) => t.name === name) },
 * };
 * serveStdio(relay);
 * ```
 */
export interface Servable<C extends ServedConnection = ServedConnection> {
  /** Serves one client on `channel`; `mode` says how the connection decides its protocol era. */
  connect(channel: Channel, mode?: EraMode): C;
  /** Tools by name, for the HTTP checks of 2026-07-28 requests (`x-mcp-header` mirrors). */
  readonly registry: ToolLookup;
  /** What the HTTP endpoint's Server Card says of the server; none: no card is served. */
  readonly serverCard?: ServerCardData;
  /**
   * Binds HTTP sessions to an authenticated principal and hears of requests refused at a limit
   * (the audit log). Without it, sessions are bound to no principal and refusals go unrecorded.
   */
  /** Shares server-wide state with other instances (see `McpServer.share`); optional. */
  share?(store: SharedStore): Promise<void>;
  /** Stops what {@link share} started (see `McpFwServer.unshare`); optional. */
  unshare?(): void;
  /**
   * Sends what the server's middleware buffered (telemetry), called by the transports when
   * they stop serving (see `McpFwServer.flush`); optional.
   */
  flush?(): Promise<void>;
  readonly guards?: {
    /** Names the caller `auth` stands for (what a session is bound to). */
    principal(auth: unknown): string | undefined;
    /** Hears of a request refused at a limit. */
    refused(event: LimitRefusalEvent): void;
    /** Where the endpoint's rate-limit counters live (`limits.rateLimitStore`). */
    readonly rateLimitStore?: RateLimitStore;
    /** How the endpoint's `key: 'identity'` names the caller (`limits.identify`). */
    readonly identify?: Identify;
    /**
     * The server's `logger`, where the HTTP endpoint says why it refused a request when the
     * operator must act (a 503 because tokens cannot be checked). Default: stderr.
     */
    readonly logger?: Logger;
  };
}
