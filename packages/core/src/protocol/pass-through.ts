import { JsonRpcError } from '../jsonrpc/index.js';
import { ToolExecutionError } from '../registry/index.js';
import { Context } from './context.js';
import type { EraName } from './eras/era.js';
import { featuresOf } from './eras/revisions.js';
import type { RequestRecord } from './request-record.js';
import type { Scope } from './server-core.js';

/** The calls a {@link PassThrough} is offered: a member's call, by name or URI. */
export type PassThroughMethod = 'tools/call' | 'resources/read' | 'prompts/get';

/**
 * One call offered to a {@link PassThrough}: admitted by its era (session, envelope and
 * handshake checked), not yet dispatched (no middleware, arguments unchecked, no member looked up).
 */
export interface PassThroughCall {
  readonly method: PassThroughMethod;
  /** The request's params exactly as the caller sent them (never copied: do not change them). */
  readonly params: Readonly<Record<string, unknown>>;
  /** `legacy` (an initialize-era session) or `modern` (a 2026-07-28 request). */
  readonly era: EraName;
  /** The revision the caller speaks: the session's, or the request's envelope's. */
  readonly protocolVersion: string;
  /** The caller's connection or HTTP session; undefined on the shared stateless HTTP connection. */
  readonly sessionId: string | undefined;
  /** What the caller declared it can do (a legacy session hands every call the same object). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** A request header by lower-case name (HTTP), as middleware reads it. */
  header(name: string): string | undefined;
  /**
   * Calls `listener` once when the caller cancels the call or goes away: `ctx.signal` without
   * an `AbortSignal` built per call (the engine's `abortWith` takes this object as it is).
   */
  onAbort(listener: (reason: unknown) => void): void;
  /**
   * The `Context` the member's handler would have been given: its signal fires when the caller
   * cancels or goes away; progress, logs and questions (elicitation, sampling, roots) reach the
   * caller through it.
   */
  readonly ctx: Context;
  /**
   * What core answers when this call fails with `error`: for `tools/call` the `isError` result a
   * handler's throw becomes, returned (a `JsonRpcError` is thrown again, to be answered as the
   * JSON-RPC error it is); for the others `error`, thrown again. For a hook that
   * {@link PassThrough.settlesFailures settles failures} itself.
   */
  failed(error: unknown): unknown;
}

/**
 * A hook before core's own dispatch of member calls, for a server that answers some of them by
 * passing them on (`@mcp-fw/proxy`): `take` returns undefined to leave the call to core (the
 * middleware, the member's checks and handler), or the call's result (what the member's handler
 * would return; for `tools/call` a failure becomes an `isError` result as a handler's throw
 * does, except a `JsonRpcError`, which is answered as the JSON-RPC error it is). What it takes runs outside the server's middleware, guardrails and argument checks:
 * install one only where none of those apply to the calls it takes.
 *
 * @example
 * ```ts
 * server.passThrough({ take: (call) => (call.method === 'tools/call' ? forward(call) : undefined) });
 * ```
 */
export interface PassThrough {
  /** The call's result (or its failure), or undefined to leave the call to core. */
  take(call: PassThroughCall): Promise<unknown> | undefined;
  /**
   * True when what `take` returns already answers failures through `call.failed` (it rejects
   * only with what that throws): core then adds no promise of its own around each call.
   */
  readonly settlesFailures?: boolean;
}

// Installed by `McpFwServer.passThrough`; read by the connection before it dispatches.
declare module './server-core.js' {
  interface ServerCore {
    /** Offered each member call before dispatch (see {@link PassThrough}). */
    passThrough?: PassThrough;
  }
}

/** A call as the hook sees it (a class: no closures built per call). */
class OfferedCall implements PassThroughCall {
  readonly era: EraName;
  readonly protocolVersion: string;
  readonly sessionId: string | undefined;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly #record: RequestRecord;
  readonly #scope: Scope;
  #ctx?: Context;

  constructor(
    readonly method: PassThroughMethod,
    readonly params: Readonly<Record<string, unknown>>,
    record: RequestRecord,
    scope: Scope,
  ) {
    this.era = record.era.name;
    this.protocolVersion = record.protocolVersion;
    this.sessionId = scope.sessionId;
    this.clientCapabilities = record.clientCapabilities;
    this.#record = record;
    this.#scope = scope;
  }

  // Built when a call is taken: most calls a hook declines never need one.
  get ctx(): Context {
    return (this.#ctx ??= new Context(this.#record, this.#scope));
  }

  header(name: string): string | undefined {
    return this.#record.request.peer?.header?.(name);
  }

  onAbort(listener: (reason: unknown) => void): void {
    this.#record.request.onAbort(listener);
  }

  failed(error: unknown): unknown {
    if (this.method !== 'tools/call') throw error;
    return toolFailure(error, this.params, this.#record, this.#scope);
  }
}

/** A tool call's failure made the `isError` result a handler's throw is (or thrown again). */
function toolFailure(
  error: unknown,
  params: Readonly<Record<string, unknown>>,
  record: RequestRecord,
  scope: Scope,
): unknown {
  // As a tool handler's throw, except that a JSON-RPC error stays one (a proxy passes on its
  // upstream's as they are); anything else is an isError result.
  const result = record.era.toolError(
    error instanceof JsonRpcError ? error : new ToolExecutionError(String(params.name), error),
    {
      features: featuresOf(record.protocolVersion),
      policy: scope.errors,
      quiet: record.request.aborted,
    },
  );
  if (!result) throw error;
  return result;
}

/**
 * Offers `record`'s call to `hook`: undefined when it is not a member call or the hook leaves it
 * to dispatch; else its answer, a tool's failure made the `isError` result a handler's is.
 */
export function offerPassThrough(
  hook: PassThrough,
  record: RequestRecord,
  scope: Scope,
): Promise<unknown> | undefined {
  const request = record.request;
  const method = request.method;
  if (method !== 'tools/call' && method !== 'resources/read' && method !== 'prompts/get')
    return undefined;
  const params = request.params;
  if (params === undefined || Array.isArray(params)) return undefined;
  const taken = hook.take(new OfferedCall(method, params, record, scope));
  if (taken === undefined || method !== 'tools/call' || hook.settlesFailures) return taken;
  return taken.then(undefined, (error: unknown) => toolFailure(error, params, record, scope));
}
