import type { Engine } from '../jsonrpc/index.js';
import type { Registry, SkillCatalog } from '../registry/index.js';
import type { LegacySession } from './eras/legacy/session.js';
import type { ErrorPolicy } from './error-ref.js';
import type { Logger } from './logger.js';
import type { RequestRecord } from './request-record.js';
import type { ConnectionHub } from './hub.js';
import type { ListCache } from './list-cache.js';

/** Who the server says it is (the `serverInfo` and `instructions` of the handshake). */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  /** `Implementation.description`, `icons` and `websiteUrl` (sent from 2025-11-25 on). */
  readonly description?: string;
  readonly icons?: readonly object[];
  readonly websiteUrl?: string;
}

/**
 * What every connection of one server shares: identity, registry, settings, caches. The services
 * built on the era contract add themselves from the layer above (`guards` in guards/guards.ts,
 * `inputs` in input/input-runs.ts, `middleware` in middleware/pipeline.ts, `tasks` in
 * tasks/tasks.ts): this file names nothing that depends on it.
 */
export interface ServerCore {
  readonly identity: ServerIdentity;
  /** Replaced (never mutated) by runtime changes; see `Registry`. */
  registry: Registry;
  readonly logger: Logger;
  /**
   * Unexpected handler errors reach clients as a generic message and a ref (`ServerOptions`);
   * undefined: on connections over a network (HTTP) only, see {@link Scope.errors}.
   */
  readonly maskInternalErrors: boolean | undefined;
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
  /** The skills served (Skills extension); undefined: the extension is not declared. */
  readonly skills?: SkillCatalog;
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
  /** How this connection reports unexpected errors: masked or not, and where they are logged. */
  readonly errors: ErrorPolicy;
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
