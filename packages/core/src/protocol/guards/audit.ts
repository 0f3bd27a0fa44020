import { InvalidArgumentsError } from '../../registry/index.js';
import { internalErrorMessage, maskedRef } from '../error-ref.js';
import type { Logger } from '../logger.js';
import type { GuardedCall } from './call.js';
import type { Identify } from './identity.js';
import { LimitError, type LimitName } from './limit-error.js';
import { TimeoutError } from './timeout.js';

/** How a tool call ended, as the audit log tells it. */
export type AuditOutcome =
  | 'ok'
  | 'error'
  | 'invalid_arguments'
  | 'cancelled'
  | 'rate_limited'
  | 'timeout'
  | 'refused'
  | 'too_large';

/**
 * One line of the audit log: one tool call, or one request refused at a limit on client-made
 * state (then `limit` names the option, `tool` the refused method, and `outcome` is `refused`).
 *
 * @example
 * ```json
 * {"time":"2026-07-28T09:15:02.114Z","tool":"find_order","requestId":7,"session":"5c9…","identity":"alice","address":"127.0.0.1","protocolVersion":"2025-11-25","durationMs":3.21,"outcome":"ok","argumentKeys":["orderId"]}
 * {"time":"2026-07-28T09:15:03.020Z","tool":"subscriptions/listen","requestId":4,"address":"10.0.0.7","protocolVersion":"2026-07-28","durationMs":0,"outcome":"refused","error":"…","argumentKeys":[],"limit":"maxListenStreamsPerClient"}
 * ```
 */
export interface AuditEntry {
  /** When the call started (ISO 8601). */
  readonly time: string;
  /** The tool called; for a refusal at a limit, the method refused (e.g. `initialize`). */
  readonly tool: string;
  readonly requestId: string | number;
  /** The session (connection) it came on; absent for 2026-07-28 over HTTP, which has none. */
  readonly session?: string;
  /** The caller's identity, from `ctx.auth` (see `limits.identify`). */
  readonly identity?: string;
  readonly address?: string;
  readonly protocolVersion: string;
  readonly durationMs: number;
  readonly outcome: AuditOutcome;
  /** The message the client got, for outcomes other than `ok`. */
  readonly error?: string;
  /**
   * Under `maskInternalErrors`, the ref the client was given for an unexpected error; the
   * server's logger has the real message and stack under the same ref.
   */
  readonly ref?: string;
  /**
   * With outcome `timeout`: how long the handler held the event loop past its deadline (a
   * synchronous handler cannot be stopped; its result was discarded).
   */
  readonly blockedMs?: number;
  readonly argumentKeys: readonly string[];
  /** The argument values, only with `audit: { arguments: true }`. */
  readonly arguments?: unknown;
  /** For a request refused at a limit on client-made state: the option that sets it. */
  readonly limit?: string;
}

/** A request refused at a limit on client-made state, as the audit log is told of it. */
export interface LimitRefusalEvent {
  readonly limit: string;
  readonly method: string;
  readonly message: string;
  readonly requestId?: string | number | null;
  readonly protocolVersion?: string;
  readonly session?: string;
  readonly auth?: unknown;
  readonly address?: string;
}

/**
 * The audit log of tool calls (`createServer({ audit })`): one JSON line per call on stderr, or
 * each entry handed to `sink`. Argument values are left out unless `arguments` is true.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Tools], audit: true }); // JSON lines on stderr
 * createServer({ name: 'x', version: '1', providers: [Tools], audit: { sink: (entry) => auditDb.insert(entry) } });
 * ```
 */
export interface AuditOptions {
  /** Receives each entry (default: one JSON line on stderr). */
  readonly sink?: (entry: AuditEntry) => void;
  /** Record argument values too (they may hold personal data or secrets). */
  readonly arguments?: boolean;
}

const OUTCOME_OF_LIMIT: Record<LimitName, AuditOutcome> = {
  rateLimit: 'rate_limited',
  timeoutMs: 'timeout',
  concurrency: 'refused',
  maxResultBytes: 'too_large',
  maxPendingClientRequests: 'refused',
  inputRounds: 'refused',
  tasks: 'refused',
  sessionState: 'refused',
};

/** Writes one entry per tool call to the configured sink. */
export class AuditLog {
  readonly #sink: (entry: AuditEntry) => void;
  readonly #withArguments: boolean;

  constructor(
    options: AuditOptions,
    private readonly identify: Identify,
    private readonly logger: Logger,
  ) {
    this.#sink = options.sink ?? stderrSink;
    this.#withArguments = options.arguments === true;
  }

  /** One entry for a request refused at a limit on client-made state. */
  refusal(event: LimitRefusalEvent): void {
    const entry: AuditEntry = {
      time: new Date().toISOString(),
      tool: event.method,
      requestId: event.requestId ?? '',
      session: event.session,
      identity: event.auth === undefined ? undefined : this.identify(event.auth),
      address: event.address,
      protocolVersion: event.protocolVersion ?? '',
      durationMs: 0,
      outcome: 'refused',
      error: event.message,
      argumentKeys: [],
      limit: event.limit,
    };
    this.#write(entry);
  }

  record(
    call: GuardedCall,
    started: { at: number; clock: number },
    outcome: { result?: unknown; error?: unknown },
  ): void {
    const { record } = call;
    const args = call.args;
    const { kind, message } = classify(call, outcome);
    const ref = maskedRef(outcome.error, call.scope.errors.maskInternalErrors);
    const entry: AuditEntry = {
      time: new Date(started.at).toISOString(),
      tool: call.name,
      requestId: record.request.id,
      session: call.scope.sessionId,
      identity: this.identify(record.auth),
      address: record.request.remoteAddress,
      protocolVersion: record.protocolVersion,
      durationMs: Math.round((performance.now() - started.clock) * 100) / 100,
      outcome: kind,
      error: ref === undefined ? message : internalErrorMessage(ref),
      ref,
      blockedMs:
        outcome.error instanceof TimeoutError && outcome.error.blockedMs !== undefined
          ? Math.round(outcome.error.blockedMs)
          : undefined,
      argumentKeys:
        typeof args === 'object' && args !== null && !Array.isArray(args) ? Object.keys(args) : [],
      arguments: this.#withArguments ? args : undefined,
    };
    this.#write(entry);
  }

  #write(entry: AuditEntry): void {
    try {
      this.#sink(entry);
    } catch (error) {
      this.logger.error('the audit sink threw', error);
    }
  }
}

function classify(
  call: GuardedCall,
  { result, error }: { result?: unknown; error?: unknown },
): { kind: AuditOutcome; message?: string } {
  const message =
    error === undefined ? undefined : error instanceof Error ? error.message : String(error);
  // The client never sees the answer to a cancelled request, whatever the handler did.
  if ((call.run?.record ?? call.record).request.aborted && !(error instanceof LimitError))
    return { kind: 'cancelled', message };
  if (error === undefined) {
    const r = result as { isError?: unknown; content?: { text?: unknown }[] } | undefined;
    if (r?.isError !== true) return { kind: 'ok' };
    const text = r.content?.[0]?.text;
    return { kind: 'error', message: typeof text === 'string' ? text : undefined };
  }
  if (error instanceof LimitError) return { kind: OUTCOME_OF_LIMIT[error.limit], message };
  if (error instanceof InvalidArgumentsError) return { kind: 'invalid_arguments', message };
  return { kind: 'error', message };
}

// One JSON line per entry on stderr, through the portable stderr (see logger.ts).
function stderrSink(entry: AuditEntry): void {
  console.error(JSON.stringify(entry));
}
