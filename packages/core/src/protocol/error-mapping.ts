import { JsonRpcError, type WireError } from '../jsonrpc/index.js';
import {
  InvalidArgumentsError,
  OutputValidationError,
  ToolExecutionError,
  UnserialisableResultError,
  ViewDocumentError,
  UserError,
  type CallToolResult,
} from '../registry/index.js';
import { ErrorCode } from './error-codes.js';
import {
  errorRef,
  internalErrorMessage,
  isInternalToolError,
  maskedRef,
  type ErrorPolicy,
  type ToolErrorSetting,
} from './error-ref.js';
import { LimitError } from './guards/limit-error.js';

export type { ErrorPolicy, ToolErrorSetting } from './error-ref.js';

/**
 * The one mapping from anything thrown to a JSON-RPC error, for what every era answers alike
 * (each `Era.mapError` first takes what its revisions answer differently: a missing resource, a
 * missing client capability). Client faults keep their code and message; everything unexpected
 * is -32603 with a generic message and a ref, the details (under the same ref) on the server's
 * log only.
 */
export function mapError(error: unknown, policy: ErrorPolicy): WireError {
  if (error instanceof JsonRpcError) return error.toJSON();
  if (error instanceof InvalidArgumentsError)
    return { code: ErrorCode.InvalidParams, message: error.message };
  if (error instanceof UserError) return { code: ErrorCode.InternalError, message: error.message };
  const ref = errorRef(error);
  if (
    error instanceof OutputValidationError ||
    error instanceof UnserialisableResultError ||
    error instanceof ViewDocumentError
  ) {
    // A server bug the author must fix; its message names no data, only the member and a path.
    policy.logger.error(`${error.message} (ref ${ref})`);
    if (policy.maskInternalErrors)
      return { code: ErrorCode.InternalError, message: internalErrorMessage(ref) };
    const message =
      error instanceof OutputValidationError
        ? `tool ${error.toolName} returned invalid structured output`
        : error.message;
    return { code: ErrorCode.InternalError, message: `Internal error: ${message}` };
  }
  policy.logger.error(`internal error while serving a request (ref ${ref})`, error);
  return { code: ErrorCode.InternalError, message: internalErrorMessage(ref) };
}

/**
 * Errors that belong inside a tools/call result (`isError: true`) rather than on the JSON-RPC
 * level: whatever a tool threw (masked under `maskInternalErrors` unless a `UserError`), a result
 * that cannot be serialised, and, from 2025-11-25 on, invalid arguments (so the model can
 * correct itself). Logs what the server's author must see. Returns undefined for errors that go
 * through {@link mapError}.
 */
export function toolErrorResult(
  error: unknown,
  setting: ToolErrorSetting,
): CallToolResult | undefined {
  const { features, policy } = setting;
  if (isInternalToolError(error)) {
    const ref = maskedRef(error, policy.maskInternalErrors);
    if (!setting.quiet) {
      const line =
        error instanceof ToolExecutionError ? `tool ${error.toolName} threw` : error.message;
      policy.logger.error(
        ref === undefined ? line : `${line} (ref ${ref})`,
        error instanceof ToolExecutionError ? error.cause : undefined,
      );
    }
    return isError(ref === undefined ? error.message : internalErrorMessage(ref));
  }
  if (error instanceof ToolExecutionError || error instanceof LimitError)
    return isError(error.message);
  if (error instanceof InvalidArgumentsError && features?.validationAsToolError)
    return isError(error.message);
  return undefined;
}

function isError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
