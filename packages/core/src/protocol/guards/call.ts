import type { MemberLimits } from '../../registry/index.js';
import type { InputRun } from '../input/input-run.js';
import type { RequestRecord } from '../request-record.js';
import type { Scope } from '../server-core.js';

/** What a handler's {@link Context} takes from the call it serves. */
export interface Invocation {
  /** 2026-07-28: the run of a call that may span several input rounds. */
  readonly run?: InputRun;
  /** A timeout's deadline, whose signal (built on first use) narrows the request's. */
  readonly deadline?: { readonly signal: AbortSignal };
  /** Merged into the `_meta` of requests to the client made while serving the call (middleware). */
  readonly outboundMeta?: object;
}

export type CallKind = 'tool' | 'resource' | 'prompt';

/** One handler call as the guards see it; built by the method handler, one per call. */
export interface GuardedCall extends Invocation {
  readonly kind: CallKind;
  /** The tool's or prompt's name, or the resource's URI. */
  readonly name: string;
  readonly limits: MemberLimits;
  /** The arguments as sent (the audit log reports their keys). */
  readonly args: unknown;
  readonly record: RequestRecord;
  readonly scope: Scope;
  deadline?: { readonly signal: AbortSignal };
}

/** The signal of the request (or, across input rounds, of the run) a call serves. */
export function baseSignal(call: GuardedCall): AbortSignal {
  return call.run?.signal ?? call.record.request.signal;
}

/** The signal the handler sees: its deadline's when it has one, else the request's. */
export function signalOf(call: GuardedCall): AbortSignal {
  return call.deadline?.signal ?? baseSignal(call);
}

/** `Tool x`, `Prompt x` or `Resource x`, for messages. */
export function describeCall(call: GuardedCall): string {
  return `${call.kind === 'tool' ? 'Tool' : call.kind === 'prompt' ? 'Prompt' : 'Resource'} ${call.name}`;
}

/**
 * The session a call belongs to: the connection, or — 2026-07-28 over HTTP, which has no
 * sessions — the client's address; calls from nowhere known share one key.
 */
export function sessionKey(call: GuardedCall): string {
  return call.scope.sessionId ?? call.record.request.remoteAddress ?? 'unknown';
}
