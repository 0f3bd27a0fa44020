import type { JsonRpcId } from '../../jsonrpc/index.js';
import type { EraName } from '../eras/era.js';
import type { InputRun } from '../input/input-run.js';
import type { ClientInfo, RequestRecord } from '../request-record.js';
import type { Scope } from '../server-core.js';
import type { MemberInfo } from './member-info.js';

/** What one message (a request or a notification) looks like to middleware. */
export interface MessageSource {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly scope: Scope;
  /** Undefined for notifications. */
  readonly record?: RequestRecord;
  readonly member?: MemberInfo;
  readonly run?: InputRun;
  readonly arguments?: unknown;
}

const NEVER = new AbortController().signal;

/**
 * The request (or notification) a middleware wraps: what was asked, by whom, over which
 * revision, and for calls the member it reaches. One per message; `arguments` may be replaced
 * before `next()`, and `state` carries values between middleware of one request.
 *
 * @example
 * ```ts
 * server.use({
 *   callTool(ctx, next) {
 *     if (ctx.member?.annotations?.destructiveHint && ctx.auth === undefined)
 *       throw new UserError(`${ctx.member.name} needs a signed-in user`);
 *     ctx.arguments = { ...(ctx.arguments as object), requestedAt: Date.now() };
 *     return next();
 *   },
 * });
 * ```
 */
export class MiddlewareContext {
  /** The JSON-RPC method (`tools/call`, `notifications/initialized`, …). */
  readonly method: string;
  /** The request's params as the client sent them (do not mutate; replace `arguments`). */
  readonly params: Record<string, unknown> | undefined;
  /**
   * Tool and prompt calls: the arguments the handler receives (validated after middleware),
   * replaceable before `next()`. Resource reads: the template's variables. Otherwise undefined.
   */
  arguments: unknown;
  /** The tool, prompt or resource a call reaches (undefined for other methods). */
  readonly member: MemberInfo | undefined;
  /**
   * Merged into the `_meta` of every request the server sends the client while serving this
   * call (elicitation, sampling, roots) — e.g. a W3C `traceparent`.
   */
  outboundMeta: Record<string, unknown> | undefined;
  readonly #source: MessageSource;
  #state?: Map<unknown, unknown>;

  constructor(source: MessageSource) {
    this.#source = source;
    this.method = source.method;
    this.params = source.params;
    this.arguments = source.arguments;
    this.member = source.member;
  }

  /** The JSON-RPC id; undefined for a notification. */
  get requestId(): JsonRpcId | undefined {
    return this.#source.record?.request.id;
  }

  /** The negotiated (legacy) or declared (2026-07-28) protocol revision, when known. */
  get protocolVersion(): string | undefined {
    return this.#source.record?.protocolVersion;
  }

  /** `legacy`: an initialize-era session; `modern`: a 2026-07-28 request. */
  get era(): EraName | undefined {
    return this.#source.record?.era.name;
  }

  /** The session (`Mcp-Session-Id`, or one per stdio connection); none on stateless 2026-07-28 HTTP. */
  get sessionId(): string | undefined {
    return this.#source.scope.sessionId;
  }

  get clientInfo(): ClientInfo | undefined {
    return this.#source.record?.clientInfo;
  }

  /** What the HTTP `authenticate` hook attached; undefined on stdio. */
  get auth(): unknown {
    return this.#source.record?.auth;
  }

  /** `http` for HTTP transports; `stdio` for stream transports (stdio, in-memory). */
  get transport(): 'http' | 'stdio' {
    return this.#source.record?.request.peer ? 'http' : 'stdio';
  }

  /** The client's network address (HTTP, when the runtime exposes it). */
  get remoteAddress(): string | undefined {
    return this.#source.record?.request.remoteAddress;
  }

  /** An HTTP request header by lower-case name (HTTP transports only). */
  header(name: string): string | undefined {
    return this.#source.record?.request.peer?.header?.(name);
  }

  /** The request's `params._meta` (progress token, W3C trace context, …). */
  get meta(): Readonly<Record<string, unknown>> | undefined {
    const meta = this.params?._meta;
    return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
      ? (meta as Record<string, unknown>)
      : undefined;
  }

  /** Fires when the client cancels (or, across 2026-07-28 input rounds, the call is abandoned). */
  get signal(): AbortSignal {
    return this.#source.run?.signal ?? this.#source.record?.request.signal ?? NEVER;
  }

  /**
   * A 2026-07-28 call replayed from its `requestState` on a process where its first rounds did
   * not run (another instance, a restart): the chain runs again, as the handler does. A retry
   * that resumes a call still waiting in this process does not run the chain again.
   */
  get replay(): boolean {
    return this.#source.run?.replay === true;
  }

  /** Values middleware share along this request, under keys of their own. */
  get state(): Map<unknown, unknown> {
    return (this.#state ??= new Map());
  }
}
