import { JsonRpcError, type WireError } from '../jsonrpc/index.js';
import {
  InvalidArgumentsError,
  OutputValidationError,
  ResourceNotFoundError,
  ToolExecutionError,
  UserError,
  type CallToolResult,
} from '../registry/index.js';
import { MissingCapabilityError } from './client-capability.js';
import { ErrorCode } from './error-codes.js';
import { LimitError } from './guards/index.js';
import type { Logger } from './logger.js';
import type { RevisionFeatures } from './revisions.js';

/**
 * The one mapping from anything thrown to a JSON-RPC error. Client faults keep their code and
 * message; everything unexpected is -32603 with a generic message, details on stderr only.
 */
export function mapError(error: unknown, logger: Logger, era: 'legacy' | 'modern' = 'legacy'): WireError {
  if (error instanceof JsonRpcError) return error.toJSON();
  if (error instanceof InvalidArgumentsError) return { code: ErrorCode.InvalidParams, message: error.message };
  if (error instanceof ResourceNotFoundError) {
    // 2026-07-28 answers not-found with -32602 (and forbids -32002).
    const code = era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
    return { code, message: error.message, data: { uri: error.uri } };
  }
  const missing = error instanceof ToolExecutionError ? error.cause : error;
  if (era === 'modern' && missing instanceof MissingCapabilityError) {
    return { code: ErrorCode.MissingRequiredClientCapability, message: missing.message, data: { requiredCapabilities: missing.required } };
  }
  if (error instanceof UserError) return { code: ErrorCode.InternalError, message: error.message };
  if (error instanceof OutputValidationError) {
    logger.error(error.message);
    return { code: ErrorCode.InternalError, message: `Internal error: tool ${error.toolName} returned invalid structured output` };
  }
  logger.error('internal error while serving a request', error);
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}

/**
 * Errors that belong inside a tools/call result (`isError: true`) rather than on the JSON-RPC
 * level: whatever a tool threw, and, from 2025-11-25 on, invalid arguments (so the model can
 * correct itself). Returns undefined for errors that go through {@link mapError}.
 */
export function toolErrorResult(error: unknown, features: RevisionFeatures, era: 'legacy' | 'modern' = 'legacy'): CallToolResult | undefined {
  // A modern client is told about a missing capability on the JSON-RPC level (-32021).
  if (era === 'modern' && error instanceof ToolExecutionError && error.cause instanceof MissingCapabilityError) return undefined;
  if (error instanceof ToolExecutionError || error instanceof LimitError) return { content: [{ type: 'text', text: error.message }], isError: true };
  if (error instanceof InvalidArgumentsError && features.validationAsToolError) {
    return { content: [{ type: 'text', text: error.message }], isError: true };
  }
  return undefined;
}
