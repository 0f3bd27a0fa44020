import { JsonRpcError } from '../jsonrpc/index.js';
import {
  InvalidArgumentsError,
  ToolExecutionError,
  UnserialisableResultError,
  UserError,
} from '../registry/index.js';
import type { RevisionFeatures } from './eras/revisions.js';
import type { Logger } from './logger.js';

/** What the error mapping needs from the server: where to log, and whether to mask. */
export interface ErrorPolicy {
  readonly logger: Logger;
  /** `createServer({ maskInternalErrors })`: unexpected tool errors reach clients as a reference only. */
  readonly maskInternalErrors: boolean;
}

/** How a failed tool call is answered: the revision's features, the server's policy. */
export interface ToolErrorSetting {
  /** The negotiated revision's features (absent when unknown: invalid arguments stay -32602). */
  readonly features?: RevisionFeatures;
  readonly policy: ErrorPolicy;
  /** Nothing is logged (the client cancelled the call: what failed after that is expected). */
  readonly quiet?: boolean;
}

const REF = Symbol('mcp-fw.error-ref');

/**
 * A short correlation id for one failure, minted once per error object: the audit log (which
 * sees the error first) and the client's answer (built after) carry the same one.
 */
export function errorRef(error: unknown): string {
  if (typeof error !== 'object' || error === null || !Object.isExtensible(error)) return mint();
  const holder = error as { [REF]?: string };
  if (holder[REF] === undefined) Object.defineProperty(holder, REF, { value: mint() });
  return holder[REF] as string;
}

function mint(): string {
  return globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 12);
}

/** The generic text a client gets for an internal failure; the log line repeats the ref. */
export function internalErrorMessage(ref: string): string {
  return `Internal error (ref ${ref}); the server's log has the details`;
}

/**
 * Whether a failed tool call is one the server's log must hear of: something the handler threw
 * that is not a `UserError` (framework refusals such as limits extend it), or a result that
 * cannot be serialised.
 */
export function isInternalToolError(
  error: unknown,
): error is ToolExecutionError | UnserialisableResultError {
  return (
    (error instanceof ToolExecutionError && !(error.cause instanceof UserError)) ||
    error instanceof UnserialisableResultError
  );
}

/**
 * What `maskInternalErrors` hides: an {@link isInternalToolError} the client neither caused nor
 * was meant to read. An elicitation answer that fails its schema is the client's own, and a
 * `JsonRpcError` is the client's error answer to a request the handler sent it, or one the
 * handler threw on purpose: both keep their message.
 */
function isMaskable(error: unknown): boolean {
  if (!isInternalToolError(error)) return false;
  const cause = error instanceof ToolExecutionError ? error.cause : undefined;
  return !(
    cause instanceof JsonRpcError ||
    (cause instanceof InvalidArgumentsError && cause.kind === 'elicitation answer')
  );
}

/** The ref a masked tool failure is reported under; undefined when the client sees the message. */
export function maskedRef(error: unknown, mask: boolean): string | undefined {
  return mask && isMaskable(error) ? errorRef(error) : undefined;
}
