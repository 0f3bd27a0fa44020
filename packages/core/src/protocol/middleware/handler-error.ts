import { JsonRpcError } from '../../jsonrpc/index.js';
import {
  InvalidArgumentsError,
  OutputValidationError,
  ResourceNotFoundError,
  ToolExecutionError,
  UnserialisableResultError,
} from '../../registry/index.js';
import { LimitError } from '../guards/index.js';

/**
 * What a tool's middleware threw, as if the tool had thrown it: a `UserError` (or any error)
 * becomes the tool's `isError` result; the framework's own errors keep their meaning.
 */
export function asToolError(toolName: string, error: unknown): unknown {
  if (
    error instanceof JsonRpcError ||
    error instanceof ToolExecutionError ||
    error instanceof InvalidArgumentsError ||
    error instanceof OutputValidationError ||
    error instanceof UnserialisableResultError ||
    error instanceof ResourceNotFoundError ||
    error instanceof LimitError
  )
    return error;
  return new ToolExecutionError(toolName, error);
}
