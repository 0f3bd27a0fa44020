import type { InboundRequest, WireError } from '../../jsonrpc/index.js';
import type { CallToolResult } from '../../registry/index.js';
import type { Asker, ClientRequestOptions } from '../client-requests.js';
import type { ErrorPolicy, ToolErrorSetting } from '../error-ref.js';
import type { RequestRecord } from '../request-record.js';
import type { MethodSpec, Scope, ServerCore } from '../server-core.js';
import type { LegacySession } from './legacy/session.js';
import type { MemberTask } from '../../registry/index.js';
import type { TaskSnapshot } from '../tasks/task-snapshot.js';
import type { TaskRelay } from '../tasks/task-work.js';

declare module '../request-record.js' {
  interface RequestRecord {
    /** The era that admitted the request: what differs between eras is asked of it. */
    readonly era: Era;
  }
}

/** The eras by name, for logs and middleware (`ctx.era`); code asks the {@link Era} object instead. */
export type EraName = 'legacy' | 'modern';

/** How `tools/call` runs as a task in an era that has tasks (see {@link Era.tasks}). */
export interface EraTasks {
  /**
   * Whether this call of a tool declared `optional` or `required` runs as a task. Throws the
   * era's refusal when the tool requires a task and the request cannot have one.
   */
  decide(
    task: MemberTask,
    record: RequestRecord,
    params: Record<string, unknown> | undefined,
  ): boolean;
  /** The answer to the `tools/call` that started a task: the era's `CreateTaskResult`. */
  created(snapshot: TaskSnapshot): unknown;
  /**
   * Where the task's questions go when not into its `inputRequests`: 2025-11-25 sends them on
   * the session as ordinary requests tagged with the task.
   */
  relay?(record: RequestRecord, scope: Scope): TaskRelay;
  /**
   * The notification a connection of this era sends its client when one of the client's tasks
   * changes status (2025-11-25 `notifications/tasks/status`), if its session has one.
   */
  statusNotification?(
    session: LegacySession,
    snapshot: TaskSnapshot,
  ): { method: string; params: unknown } | undefined;
}

/** A request let in by its era: the record every handler reads, and the method that serves it. */
export interface Admission {
  readonly record: RequestRecord;
  readonly method: MethodSpec;
}

/**
 * Everything that differs between the protocol eras (protocol.md §1–2): the initialize-era
 * revisions, where a connection or HTTP session carries the client's state, and the stateless
 * revision, where every request carries it in its own envelope. Code outside `protocol/eras/`
 * asks the request's `Era` (`record.era`) instead of comparing revision strings, so a feature
 * that behaves differently per era adds a member here, implemented once per era folder.
 *
 * Era objects are immutable singletons: per-connection state lives in the {@link Scope}
 * (the legacy session), per-request state in the record.
 */
export interface Era {
  /** For logs, error messages and `MiddlewareContext.era` only; never compared to decide behaviour. */
  readonly name: EraName;

  /**
   * Whether each request carries the client's state in its own envelope (no handshake, no
   * session). Over HTTP such requests are served on one connection shared by every client
   * instead of a session; a connection opened for this era tells their ids apart per stream.
   */
  readonly stateless: boolean;

  /** The request methods this era answers, by name; anything else is -32601. */
  readonly methods: ReadonlyMap<string, MethodSpec>;

  /**
   * Lets one request in: reads what the era takes its state from (the session's handshake, or
   * the request's own envelope), finds the method, and builds the record. Throws the JSON-RPC
   * error that refuses the request. `admitted` is called once the request is known to belong to
   * this era (legacy: at once; stateless: once its envelope was read and its version accepted);
   * a connection that has not yet decided its era pins on it (see `select.ts`).
   */
  admit(request: InboundRequest, scope: Scope, admitted?: () => void): Admission;

  /**
   * Makes the frame parser of one connection of this era (stdio), when the era has a faster
   * way than `parseFrame` to read what its clients repeat on every request. The parser must
   * return what `parseFrame` returns for the same text, or throw what it throws. Absent:
   * `parseFrame`.
   */
  readonly frameParser?: () => (text: string) => unknown;

  /**
   * The result as sent, applied just before serialisation (the stateless era adds `resultType`,
   * the server's identity and cache hints). Absent when results go out as the handler made them.
   */
  readonly encodeResult?: (value: unknown, method: string, core: ServerCore) => unknown;

  /** Anything thrown while serving a request of this era, as its JSON-RPC error. */
  mapError(error: unknown, policy: ErrorPolicy): WireError;

  /**
   * A failed `tools/call` as an in-band `isError` result, or undefined when the failure is a
   * JSON-RPC error instead (then {@link mapError} encodes it).
   */
  toolError(error: unknown, setting: ToolErrorSetting): CallToolResult | undefined;

  /**
   * How a handler's question reaches the client: `true` when it is an `input_required` result
   * answered by a retry (input rounds, see `InputRuns`); `false` when it is a real server→client
   * request on the live channel.
   */
  readonly asksInRounds: boolean;

  /** Sends one question (`elicitation/create`, `sampling/createMessage`, `roots/list`) and awaits the answer. */
  ask(
    asker: Asker,
    scope: Scope,
    method: string,
    params: unknown,
    options: ClientRequestOptions,
  ): Promise<unknown>;

  /** Whether a URL-mode elicitation carries an `elicitationId` (and a completion notification may follow). */
  readonly urlElicitationIds: boolean;

  /**
   * The lowest log level sent to the client for this request: the session's `logging/setLevel`
   * (everything before one is set), or the request's own level (nothing without one).
   */
  logThreshold(record: RequestRecord, session: LegacySession): string | undefined;

  /**
   * Whether a connection of this era is told of list changes unsolicited (`notifications/<list>/
   * list_changed` once initialized). When false, changes travel only on listen streams.
   */
  pushesListChanged(session: LegacySession): boolean;

  /** Whether a JSON array of requests (a batch) is accepted on a connection of this era now. */
  acceptsBatch(session: LegacySession): boolean;

  /** How calls become tasks; absent where the era runs every call in its request. */
  readonly tasks?: EraTasks;
}
