import type { Engine } from '../jsonrpc/index.js';
import type { Registry } from '../registry/index.js';
import type { LegacySession } from './eras/legacy/session.js';
import type { Logger } from './logger.js';
import type { RequestRecord } from './request-record.js';
import type { ConnectionHub } from './hub.js';
import type { InputRuns } from './input/input-runs.js';
import type { Guards } from './guards/index.js';
import type { ListCache } from './list-cache.js';
import type { Pipeline } from './middleware/index.js';
import type { Tasks } from './tasks/index.js';
import type { SessionStateKeeper } from './session-state/session-state.js';

/** Who the server says it is (the `serverInfo` and `instructions` of the handshake). */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
}

/** What every connection of one server shares: identity, registry, settings, caches. */
export interface ServerCore {
  readonly identity: ServerIdentity;
  /** Replaced (never mutated) by runtime changes; see `Registry`. */
  registry: Registry;
  readonly logger: Logger;
  /** Unexpected handler errors reach clients as a generic message and a ref (`ServerOptions`). */
  readonly maskInternalErrors: boolean;
  /** Items per list page; Infinity sends every item in one page. */
  readonly pageSize: number;
  readonly lists: ListCache;
  readonly hub: ConnectionHub;
  /** Default timeout of server→client requests (elicitation, sampling, roots). */
  readonly clientRequestTimeoutMs: number;
  /** Cache hints of cacheable 2026-07-28 results (protocol.md §3.5: default 0 ms, private). */
  /** Hides members from a caller's lists (`ServerOptions.listed`). */
  readonly listed?: (
    auth: unknown,
    member: {
      kind: 'tool' | 'prompt' | 'resource' | 'template';
      name: string;
      scopes: readonly string[];
    },
  ) => boolean;
  readonly cacheHints: { readonly ttlMs: number; readonly cacheScope: 'public' | 'private' };
  /** 2026-07-28 calls waiting for the client's input (multi round-trip requests). */
  readonly inputs: InputRuns;
  /** Rate limits, timeouts, concurrency caps, output policy and audit log around handlers. */
  readonly guards: Guards;
  /** Middleware around requests (`server.use`, `createServer({ middleware })`). */
  readonly middleware: Pipeline;
  /** Calls running as tasks (owner-bound, bounded, expiring); see `@Tool({ task })`. */
  readonly tasks: Tasks;
  /** Handlers' `ctx.state`: per session, bounded, in memory or the shared store. */
  readonly sessionState: SessionStateKeeper;
}

/** What a method handler may touch: the shared core, this connection's session and engine. */
export interface Scope {
  readonly core: ServerCore;
  readonly session: LegacySession;
  readonly engine: Engine;
  /**
   * The connection's session id (the transport's, e.g. `Mcp-Session-Id`, or one minted here);
   * undefined on the shared stateless connection of 2026-07-28 over HTTP.
   */
  readonly sessionId: string | undefined;
}

export type MethodHandler = (
  params: Record<string, unknown> | undefined,
  record: RequestRecord,
  scope: Scope,
) => unknown;

export interface MethodSpec {
  readonly handle: MethodHandler;
  /** Served before the handshake completes (initialize and ping). */
  readonly beforeInitialize?: boolean;
}
