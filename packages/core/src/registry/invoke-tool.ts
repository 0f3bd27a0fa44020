import type { Validation } from '../schema/index.js';
import type { CallToolResult } from './content.js';
import {
  InvalidArgumentsError,
  OutputValidationError,
  ToolExecutionError,
  UnserialisableResultError,
} from './errors.js';
import { isThenable, thenMaybe, type MaybePromise } from './maybe-async.js';
import { normaliseToolResult } from './normalise-tool-result.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * Validates the arguments, runs the handler and normalises its result. Failures are thrown as
 * the registry's typed errors (synchronously, when nothing before them was asynchronous); the
 * protocol layer decides how each looks on the wire. Synchronous from end to end when the
 * validators and the handler are.
 */
export function invokeTool(
  tool: ToolDefinition,
  rawArgs: unknown,
  ctx: unknown,
): MaybePromise<CallToolResult> {
  return thenMaybe(tool.validateInput(rawArgs ?? {}), (input) => runHandler(tool, input, ctx));
}

function runHandler(
  tool: ToolDefinition,
  input: Validation,
  ctx: unknown,
): MaybePromise<CallToolResult> {
  if (!input.ok) throw new InvalidArgumentsError(tool.name, input.issues);
  let value: unknown;
  try {
    value = tool.handler(input.value, ctx);
  } catch (error) {
    throw new ToolExecutionError(tool.name, error);
  }
  if (!isThenable(value)) return finish(tool, value);
  return Promise.resolve(value).then(
    (resolved) => finish(tool, resolved),
    (error: unknown) => {
      throw new ToolExecutionError(tool.name, error);
    },
  );
}

function finish(tool: ToolDefinition, value: unknown): MaybePromise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = normaliseToolResult(value, tool.validateOutput !== undefined);
  } catch (error) {
    // Only JSON.stringify throws in there: a BigInt or a cycle in what the tool returned.
    throw new UnserialisableResultError('tool', tool.name, value, error);
  }
  if (!tool.validateOutput || result.structuredContent === undefined || result.isError)
    return result;
  return thenMaybe(tool.validateOutput(result.structuredContent), (output) => {
    if (!output.ok) throw new OutputValidationError(tool.name, output.issues);
    return result;
  });
}
